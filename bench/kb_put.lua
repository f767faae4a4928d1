-- PUT of a 200-block entry where one block changed: block 0's text takes a
-- new value on every request. BODY_FILE holds the body with a __N__ marker.
local counter = 0
local template
init = function(args)
  local f = assert(io.open(os.getenv("BODY_FILE"), "r"))
  template = f:read("*a")
  f:close()
end
request = function()
  counter = counter + 1
  local body = template:gsub("__N__", tostring(counter) .. "-" .. tostring(math.random(1, 1e9)))
  return wrk.format("PUT", os.getenv("ENTRY_PATH"), {
    ["Authorization"] = "Bearer " .. os.getenv("TOKEN"),
    ["Content-Type"] = "application/json"}, body)
end
