// app/cli.hpp: the mppnet command line.
#pragma once

namespace mppnet::app {

// Exit status: 0 success, 1 a run or validation failed, 2 bad input, 3 deadlock detected.
int main(int argc, char** argv);

}  // namespace mppnet::app
