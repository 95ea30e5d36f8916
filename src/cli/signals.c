/* signals.c — the stop flag and its SIGINT/SIGTERM handler (see signals.h). */
#include "signals.h"

#include <string.h>

static volatile sig_atomic_t stop_requested;

static void on_stop_signal(int sig)
{
	stop_requested = sig;
}

const volatile sig_atomic_t *signals_install_stop(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	return &stop_requested;
}
