/*
 * signals.h — turns the signals that would kill the program (SIGINT,
 * SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU,
 * SIGXFSZ, SIGVTALRM, SIGPROF, SIGPWR) into a stop request that the engine
 * and the layout poll, so a run ends cleanly: partial results printed where
 * they still can be, scratch files gone. SIGPIPE (`iomodel run --json |
 * head`) stops the run like the others; the write that raised it fails.
 * A signal already ignored when the program starts (nohup for SIGHUP; a
 * non-interactive shell ignores SIGINT and SIGQUIT in its background jobs)
 * stays ignored, as the caller asked.
 * The flag is the program's one mutable global, as signal handling requires.
 */
#ifndef IOMODEL_SIGNALS_H
#define IOMODEL_SIGNALS_H

#include <signal.h>

/*
 * Install the handlers (without SA_RESTART, so blocking waits return EINTR).
 * The flag stays 0 until a signal arrives, then holds its number, so the
 * program can exit with the customary 128 + signal.
 */
const volatile sig_atomic_t *signals_install_stop(void);

/*
 * The exit status of a command that ended with `status`: 128 + the signal
 * when one cut it short (the run was interrupted, or its output failed on
 * SIGPIPE), else `status` unchanged.
 */
int signals_exit_status(int status, const volatile sig_atomic_t *stop);

#endif
