#include "trust/app_registry.h"
