-- wrk script: POST a message as one of many bots, a different token on each request.
local tokens = {}
local path

function init(args)
  local f = io.open(os.getenv("BENCH_TOKENS"))
  path = f:read("*l")
  for line in f:lines() do tokens[#tokens + 1] = line end
  f:close()
end

local n = 0
function request()
  n = n + 1
  local token = tokens[(n % #tokens) + 1]
  return wrk.format("POST", path, {
    ["Authorization"] = "Bearer " .. token,
    ["Content-Type"] = "application/json",
  }, '{"content":"mensagem de carga número ' .. n .. '"}')
end
