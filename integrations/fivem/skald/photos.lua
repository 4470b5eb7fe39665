-- Photo logs: a screenshot's data URI (screenshot-basic or screencapture) sent to Skald's POST
-- /api/photologs as multipart/form-data (field `photo` plus the log's text fields and its time). A 429,
-- 5xx or no answer is tried again up to 3 times after Skald's `retryAfter`; a Skald that does not take
-- the time gets the photo again without it; anything else is reported in the console. The key is never
-- printed.

SkaldPhotos = {}

local MAX_ATTEMPTS = 3
local B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
local B64_INDEX = {}
for i = 1, #B64 do B64_INDEX[B64:sub(i, i)] = i - 1 end

--- Decodes base64 (padding optional, whitespace ignored) to a binary string.
function SkaldPhotos.decodeBase64(text)
  text = text:gsub('[^%w%+/]', '')
  local out, bits, count = {}, 0, 0
  for i = 1, #text do
    bits = (bits << 6) | B64_INDEX[text:sub(i, i)]
    count = count + 6
    if count >= 8 then
      count = count - 8
      out[#out + 1] = string.char((bits >> count) & 0xFF)
    end
  end
  return table.concat(out)
end

local EXTENSIONS = { ['image/jpeg'] = 'jpg', ['image/png'] = 'png', ['image/webp'] = 'webp' }

--- 'data:image/jpeg;base64,...' -> bytes, content type; nil for anything else.
function SkaldPhotos.fromDataUri(dataUri)
  local mime, payload = tostring(dataUri):match('^data:([%w/%-%.]+);base64,(.*)$')
  if mime == 'image/jpg' then mime = 'image/jpeg' end
  if not mime or not EXTENSIONS[mime] then return nil end
  return SkaldPhotos.decodeBase64(payload), mime
end

function SkaldPhotos.multipart(bytes, mime, log)
  local boundary = ('----skald%08x%08x'):format(math.random(0, 0x7fffffff), math.random(0, 0x7fffffff))
  local parts = {}
  local function field(name, value)
    parts[#parts + 1] = ('--%s\r\nContent-Disposition: form-data; name="%s"\r\n\r\n%s\r\n'):format(boundary, name, value)
  end
  for _, name in ipairs({ 'message', 'level', 'type', 'resource', 'timestamp' }) do
    if log[name] ~= nil then field(name, log[name]) end
  end
  if log.metadata ~= nil then field('metadata', json.encode(log.metadata)) end
  parts[#parts + 1] = ('--%s\r\nContent-Disposition: form-data; name="photo"; filename="screenshot.%s"\r\nContent-Type: %s\r\n\r\n'):format(boundary, EXTENSIONS[mime], mime)
  parts[#parts + 1] = bytes
  parts[#parts + 1] = ('\r\n--%s--\r\n'):format(boundary)
  return table.concat(parts), 'multipart/form-data; boundary=' .. boundary
end

function SkaldPhotos.upload(dataUri, log, attempt)
  attempt = attempt or 1
  local bytes, mime = SkaldPhotos.fromDataUri(dataUri)
  if not bytes then
    print('^3[skald]^7 the screenshot is not a JPG, PNG or WEBP data URI; not sent')
    return
  end
  local url, key = SkaldQueue.endpoint()
  if not url then
    print('^3[skald]^7 set skald_url and skald_api_key in server.cfg; screenshot not sent')
    return
  end
  local body, contentType = SkaldPhotos.multipart(bytes, mime, log)
  PerformHttpRequest(url .. '/api/photologs', function(status, _body, headers, errorData)
    status = tonumber(status) or 0
    if status >= 200 and status < 300 then return end
    local refusal, unknownField = SkaldQueue.timestampRefusal(errorData)
    if status == 400 and refusal and log.timestamp ~= nil then
      if unknownField then SkaldQueue.stopTimestamps() end
      log.timestamp = nil
      SkaldPhotos.upload(dataUri, log, attempt)
      return
    end
    local retriable = status == 429 or status >= 500 or status == 0
    if retriable and attempt < MAX_ATTEMPTS then
      local wait = SkaldQueue.retryAfterOf(errorData, headers) or 2 ^ attempt
      SetTimeout(math.floor(wait * 1000), function() SkaldPhotos.upload(dataUri, log, attempt + 1) end)
      return
    end
    print(('^3[skald]^7 Skald refused the screenshot (%d); it was dropped'):format(status))
  end, 'POST', body, { ['Content-Type'] = contentType, ['X-API-Key'] = key })
end
