// reports_api_test: see docs/reports.md
#include <gtest/gtest.h>
