-- PUT of a 200-block entry where one block changed: block 0's text differs
-- between consecutive requests. BODY_FILE holds the body with a __N__
-- marker. Requests are formatted once, up front, so the load generator
-- spends its CPU sending rather than building 40 KB bodies (it shares the
-- machine's two cores with the server).
local requests = {}
local next_request = 0
init = function(args)
  local f = assert(io.open(os.getenv("BODY_FILE"), "r"))
  local template = f:read("*a")
  f:close()
  local headers = {["Authorization"] = "Bearer " .. os.getenv("TOKEN"), ["Content-Type"] = "application/json"}
  local seed = math.random(1, 1e9)
  for i = 1, 2000 do
    local body = template:gsub("__N__", tostring(seed) .. "-" .. tostring(i))
    requests[i] = wrk.format("PUT", os.getenv("ENTRY_PATH"), headers, body)
  end
end
request = function()
  next_request = next_request % #requests + 1
  return requests[next_request]
end
