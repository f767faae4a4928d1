// apps_api_test: see docs/apps.md
#include <gtest/gtest.h>
