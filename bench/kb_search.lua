-- Search with one or two words drawn from the corpus's common vocabulary.
local words = {}
init = function(args)
  for line in io.lines(os.getenv("VOCABULARY")) do words[#words + 1] = line end
end
request = function()
  local q = words[math.random(#words)]
  if math.random() < 0.5 then q = q .. "%20" .. words[math.random(#words)] end
  return wrk.format("GET", "/api/entries/search?q=" .. q, {["Authorization"] = "Bearer " .. os.getenv("TOKEN")})
end
