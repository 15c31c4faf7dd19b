// SPDX-License-Identifier: GPL-2.0-only
//
// qaic-util's table view (-t) is built on ftxui, which Debian 12 does not
// package: this stands in for the runtime's QaicUtilTxUI.cpp and refuses
// the option (scripts/vendor-rt/CMakeLists.txt).
#include "QAicRuntimeTypes.h"

#include <cstdint>
#include <iostream>
#include <vector>

int txUIDisplayTable(uint32_t tableRefreshRate, const std::vector<QID> &devList)
{
	(void)tableRefreshRate;
	(void)devList;
	std::cerr << "qaic-util: -t (the ftxui table view) is not in this build\n";
	return -1;
}
