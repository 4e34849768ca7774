-- wrk script for bench/vs_pocketbase.py: one request kind per run, picked by BENCH_MODE.
-- A thread may serve several keep-alive connections (wrk -tT -cC). Each thread owns the lines of
-- BENCH_FILE whose position modulo T is its number (every thread shares the one line when there
-- are fewer lines than threads), and each request takes the next of them in turn.
-- Refresh runs with a thread per connection (T = C), each chaining its own rotating token: wrk
-- may ask for a request and drop it unsent (a write that would block is asked for anew), so a
-- token can only be replaced by an answer, never handed out from a shared pool.
--
-- BENCH_FILE: one line per user, tab-separated (token, then what the mode needs: user id, year
--   id, scope, email). BENCH_THREADS: wrk's -t. BENCH_EXPECT: the status that counts as success.
--   BENCH_LO/BENCH_HI: id range (read); BENCH_PAGES: pages (list); BENCH_QUERIES: comma-separated
--   (search); BENCH_RUN: a tag that makes generated emails unique.

local threads = {}
local next_tid = 0

function setup(thread)
    thread:set("tid", next_tid)
    next_tid = next_tid + 1
    table.insert(threads, thread)
end

local function split(text, sep)
    local parts = {}
    for part in string.gmatch(text, "([^" .. sep .. "]+)") do
        table.insert(parts, part)
    end
    return parts
end

local function hex(n)
    local out = {}
    for i = 1, n do
        out[i] = string.format("%x", math.random(0, 15))
    end
    return table.concat(out)
end

local function uuid()
    return hex(8) .. "-" .. hex(4) .. "-4" .. hex(3) .. "-a" .. hex(3) .. "-" .. hex(12)
end

local function urlencode(text)
    return (string.gsub(text, "[^%w%-_%.~]", function(c) return string.format("%%%02X", string.byte(c)) end))
end

local FIRST = {"John", "Mary", "Robert", "Anna", "Liam", "Olivia", "Emma", "Lucas", "Grace", "Chloe"}
local LAST = {"Smith", "Johnson", "Brown", "Garcia", "Miller", "Davis", "Wilson", "Taylor", "Moore", "Lee"}

function init(args)
    mode = os.getenv("BENCH_MODE")
    expect = tonumber(os.getenv("BENCH_EXPECT") or "200")
    run = os.getenv("BENCH_RUN") or "run"
    lo = tonumber(os.getenv("BENCH_LO") or "1")
    hi = tonumber(os.getenv("BENCH_HI") or "1")
    pages = tonumber(os.getenv("BENCH_PAGES") or "1")
    queries = split(os.getenv("BENCH_QUERIES") or "smith", ",")
    local lines = {}
    local file = os.getenv("BENCH_FILE")
    if file and file ~= "" then
        for line in io.lines(file) do
            table.insert(lines, line)
        end
    end
    local thread_count = tonumber(os.getenv("BENCH_THREADS") or "1")
    owned = {}
    for i, line in ipairs(lines) do
        if (i - 1) % thread_count == tid then
            table.insert(owned, split(line, "\t"))
        end
    end
    if #owned == 0 and #lines > 0 then
        owned = {split(lines[(tid % #lines) + 1], "\t")}
    end
    mine = owned[1] or {}
    -- The thread's refresh chain: its line's token, then each answer's rotated one.
    chain = mine[1]
    math.randomseed(os.time() + tid * 7919)
    ok = 0
    bad = 0
    sample = ""
    n = 0
    hlc_counter = 0
end

local function json_post(path, body, auth)
    local headers = {["Content-Type"] = "application/json", ["Accept"] = "application/json"}
    if auth then
        headers["Authorization"] = auth
    end
    return wrk.format("POST", path, headers, body)
end

local function get(path, auth)
    return wrk.format("GET", path, {["Accept"] = "application/json", ["Authorization"] = auth})
end

local function stamp_now()
    return os.date("!%Y-%m-%dT%H:%M:%S.000Z")
end

function request()
    n = n + 1
    if #owned > 0 then
        mine = owned[(n % #owned) + 1]
    end
    local token = mine[1]
    if mode == "kith-refresh" or mode == "pb-refresh" then
        token = chain
    end
    local first = FIRST[math.random(#FIRST)]
    local last = LAST[math.random(#LAST)]
    if mode == "kith-health" then
        return wrk.format("GET", "/healthz")
    elseif mode == "pb-health" then
        return wrk.format("GET", "/api/health")
    elseif mode == "kith-refresh" then
        return json_post("/v1/auth/refresh", '{"refreshToken":"' .. token .. '"}')
    elseif mode == "pb-refresh" then
        return json_post("/api/collections/users/auth-refresh", "", token)
    elseif mode == "kith-create-api" then
        return json_post("/api/contacts", '{"first_name":"' .. first .. '","last_name":"' .. last ..
            '","is_birthdate_known":false,"is_deceased":false,"is_deceased_date_known":false}', "Bearer " .. token)
    elseif mode == "kith-create-push" then
        -- One mutation: a new outreach.contact in the worker's own year (mine[3]) and scope (mine[4]).
        hlc_counter = (hlc_counter + 1) % 100000
        local hlc = string.format("%012d000-%05d-wrk%d", os.time(), hlc_counter, tid)
        local body = '{"clientId":"' .. uuid() .. '","mutations":[{"mutationId":"' .. uuid() ..
            '","entity":"outreach.contact","id":"' .. uuid() .. '","scope":"' .. mine[4] ..
            '","op":"upsert","hlc":"' .. hlc .. '","fields":{"yearId":"' .. mine[3] ..
            '","firstName":"' .. first .. '","lastName":"' .. last .. '","enterpriseName":"Bench"}}]}'
        return json_post("/v1/sync/push", body, "Bearer " .. token)
    elseif mode == "pb-create" then
        return json_post("/api/collections/contacts/records", '{"first_name":"' .. first .. '","last_name":"' ..
            last .. '","owner":"' .. mine[2] .. '"}', token)
    elseif mode == "kith-read" then
        return get("/api/contacts/" .. math.random(lo, hi), "Bearer " .. token)
    elseif mode == "pb-read" then
        return get(string.format("/api/collections/contacts/records/c%014d", math.random(lo, hi)), token)
    elseif mode == "kith-list" then
        return get("/api/contacts?limit=50&sort=last_name&page=" .. math.random(1, pages), "Bearer " .. token)
    elseif mode == "pb-list" then
        return get("/api/collections/contacts/records?perPage=50&sort=last_name&page=" .. math.random(1, pages), token)
    elseif mode == "kith-search" then
        return get("/api/contacts?limit=50&query=" .. urlencode(queries[math.random(#queries)]), "Bearer " .. token)
    elseif mode == "pb-search" then
        local filter = "(last_name~'" .. queries[math.random(#queries)] .. "')"
        return get("/api/collections/contacts/records?perPage=50&filter=" .. urlencode(filter), token)
    elseif mode == "kith-signup" then
        return json_post("/v1/auth/signup", '{"email":"su-' .. run .. "-" .. tid .. "-" .. n ..
            '@example.com","password":"correct horse battery"}')
    elseif mode == "pb-signup" then
        return json_post("/api/collections/users/records", '{"email":"su-' .. run .. "-" .. tid .. "-" .. n ..
            '@example.com","password":"correct horse battery","passwordConfirm":"correct horse battery"}')
    elseif mode == "kith-signin" then
        return json_post("/v1/auth/login", '{"email":"' .. mine[5] .. '","password":"correct horse battery"}')
    elseif mode == "pb-signin" then
        return json_post("/api/collections/users/auth-with-password", '{"identity":"' .. mine[5] ..
            '","password":"correct horse battery"}')
    end
    error("unknown BENCH_MODE " .. tostring(mode))
end

function response(status, headers, body)
    local good = status == expect
    if good and mode == "kith-refresh" then
        local new = string.match(body, '"refreshToken"%s*:%s*"([^"]+)"')
        if new then chain = new else good = false end
    elseif good and mode == "pb-refresh" then
        local new = string.match(body, '"token"%s*:%s*"([^"]+)"')
        if new then chain = new else good = false end
    elseif good and mode == "kith-create-push" then
        good = string.find(body, '"status":"applied"', 1, true) ~= nil
    end
    if good then
        ok = ok + 1
    else
        bad = bad + 1
        if sample == "" then
            sample = status .. " " .. string.sub(body or "", 1, 200)
        end
    end
end

function done(summary, latency, requests)
    local ok_total, bad_total, first_sample = 0, 0, ""
    for _, thread in ipairs(threads) do
        ok_total = ok_total + (thread:get("ok") or 0)
        bad_total = bad_total + (thread:get("bad") or 0)
        local s = thread:get("sample") or ""
        if first_sample == "" and s ~= "" then first_sample = s end
    end
    local e = summary.errors
    io.write(string.format('BENCH_RESULT {"requests":%d,"ok":%d,"bad":%d,"duration_us":%d,' ..
        '"socket_errors":%d,"p50_us":%d,"p99_us":%d,"sample":"%s"}\n',
        summary.requests, ok_total, bad_total, summary.duration,
        e.connect + e.read + e.write + e.timeout, math.floor(latency:percentile(50)), math.floor(latency:percentile(99)),
        (string.gsub(first_sample, '[%c"\\]', " "))))
end
