-- wrk script: GET /api/users/me with a development token (set TOKEN).
wrk.method = "GET"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("TOKEN")
