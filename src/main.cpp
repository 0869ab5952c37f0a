// main.cpp: the mppnet command; everything it does lives in app/.
#include "app/cli.hpp"

int main(int argc, char** argv) {
  return mppnet::app::main(argc, argv);
}
