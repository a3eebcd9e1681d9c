#pragma once
// Ctrl-C (SIGINT) and SIGTERM during a batch check: the first one asks the run to stop taking new files;
// the files in hand are finished and reported, and no temporary file is left behind.

namespace irlint::cli {

// Installs the handlers for the rest of the process. The exit code of an interrupted run is 130.
void catch_interrupts();
bool interrupted();

inline constexpr int kInterruptedExit = 130;

}  // namespace irlint::cli
