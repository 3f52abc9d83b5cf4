// Declarations only: see include/actionflow_http_engine.h.
