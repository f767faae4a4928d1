-- GET of an entry in a translation's language.
wrk.method = "GET"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("TOKEN")
