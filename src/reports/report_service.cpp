#include "reports/report_service.h"
