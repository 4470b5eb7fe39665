-- A small JSON library standing in for FXServer's built-in `json` global (the harness provides only what
-- FiveM provides; plain lua5.4 has no JSON). Like FiveM's, a table with [1] or no entries is an array.
local json = {}

local ESCAPES = { ['"'] = '\\"', ['\\'] = '\\\\', ['\b'] = '\\b', ['\f'] = '\\f', ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t' }

local function encodeString(s)
  return '"' .. s:gsub('[%c"\\]', function(c) return ESCAPES[c] or ('\\u%04x'):format(c:byte()) end) .. '"'
end

local function encode(value)
  local kind = type(value)
  if kind == 'nil' then return 'null' end
  if kind == 'boolean' then return tostring(value) end
  if kind == 'number' then
    if value ~= value or value == math.huge or value == -math.huge then error('cannot encode ' .. tostring(value)) end
    if math.type(value) == 'integer' or value == math.floor(value) and math.abs(value) < 2 ^ 53 then return ('%d'):format(value) end
    return ('%.17g'):format(value)
  end
  if kind == 'string' then return encodeString(value) end
  if kind == 'table' then
    local out = {}
    if rawget(value, 1) ~= nil or next(value) == nil then
      for i = 1, #value do out[i] = encode(value[i]) end
      return '[' .. table.concat(out, ',') .. ']'
    end
    for k, v in pairs(value) do out[#out + 1] = encodeString(tostring(k)) .. ':' .. encode(v) end
    table.sort(out)
    return '{' .. table.concat(out, ',') .. '}'
  end
  error('cannot encode a ' .. kind)
end
json.encode = encode

function json.decode(text)
  local pos = 1
  local function fail(what) error(('json: %s at %d'):format(what, pos)) end
  local function skip() pos = text:find('[^ \t\r\n]', pos) or #text + 1 end
  local value
  local function str()
    local out = {}
    pos = pos + 1
    while true do
      local c = text:sub(pos, pos)
      if c == '' then fail('unterminated string') end
      if c == '"' then pos = pos + 1; return table.concat(out) end
      if c == '\\' then
        local e = text:sub(pos + 1, pos + 1)
        local simple = { b = '\b', f = '\f', n = '\n', r = '\r', t = '\t', ['"'] = '"', ['\\'] = '\\', ['/'] = '/' }
        if simple[e] then out[#out + 1] = simple[e]; pos = pos + 2
        elseif e == 'u' then out[#out + 1] = utf8.char(tonumber(text:sub(pos + 2, pos + 5), 16)); pos = pos + 6
        else fail('bad escape') end
      else
        out[#out + 1] = c
        pos = pos + 1
      end
    end
  end
  function value()
    skip()
    local c = text:sub(pos, pos)
    if c == '{' then
      local obj = {}
      pos = pos + 1
      skip()
      if text:sub(pos, pos) == '}' then pos = pos + 1; return obj end
      while true do
        skip()
        if text:sub(pos, pos) ~= '"' then fail('expected key') end
        local key = str()
        skip()
        if text:sub(pos, pos) ~= ':' then fail('expected :') end
        pos = pos + 1
        obj[key] = value()
        skip()
        local d = text:sub(pos, pos)
        pos = pos + 1
        if d == '}' then return obj end
        if d ~= ',' then fail('expected , or }') end
      end
    elseif c == '[' then
      local arr = {}
      pos = pos + 1
      skip()
      if text:sub(pos, pos) == ']' then pos = pos + 1; return arr end
      while true do
        arr[#arr + 1] = value()
        skip()
        local d = text:sub(pos, pos)
        pos = pos + 1
        if d == ']' then return arr end
        if d ~= ',' then fail('expected , or ]') end
      end
    elseif c == '"' then
      return str()
    else
      local literal = text:match('^-?%d+%.?%d*[eE]?[-+]?%d*', pos)
      if literal and literal ~= '' then pos = pos + #literal; return tonumber(literal) end
      for word, v in pairs({ ['true'] = true, ['false'] = false }) do
        if text:sub(pos, pos + #word - 1) == word then pos = pos + #word; return v end
      end
      if text:sub(pos, pos + 3) == 'null' then pos = pos + 4; return nil end
      fail('unexpected character')
    end
  end
  local result = value()
  skip()
  if pos <= #text then fail('trailing text') end
  return result
end

return json
