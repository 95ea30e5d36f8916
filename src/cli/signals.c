/* signals.c — the stop flag and the handler of every stop signal (see signals.h). */
#include "signals.h"

#include <string.h>

#include "commands.h"

static volatile sig_atomic_t stop_requested;

static void on_stop_signal(int sig)
{
	stop_requested = sig;
}

const volatile sig_atomic_t *signals_install_stop(void)
{
	static const int stop_signals[] = {
		SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1, SIGUSR2,
		SIGALRM, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGPWR,
	};
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++) {
		struct sigaction was;

		/* ignored when we started (nohup, a shell's background job): stays so */
		if (sigaction(stop_signals[i], NULL, &was) == 0 && was.sa_handler == SIG_IGN)
			continue;
		sigaction(stop_signals[i], &sa, NULL);
	}
	return &stop_requested;
}

int signals_exit_status(int status, const volatile sig_atomic_t *stop)
{
	if (*stop && (status == EXIT_INTERRUPTED || (status == EXIT_FAILED && *stop == SIGPIPE)))
		return 128 + *stop;
	return status;
}
