/*
 * signals.h — turns SIGINT and SIGTERM into a stop request that the engine
 * polls, so a run ends cleanly: partial results printed, scratch files gone.
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

#endif
