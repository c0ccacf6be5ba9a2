-- bench/http-moves.lua: wrk script posting pre-signed moves.
-- corrchess - a correspondence chess server
-- Copyright (C) 2026 The corrchess developers
-- SPDX-License-Identifier: GPL-3.0-or-later
--
-- wrk script of bench/http. Run with as many threads as connections (-t N
-- -c N), so that each connection has its own Lua state and walks its own
-- games:
--
--   wrk -t N -c N ... -s http-moves.lua URL -- moves DIR
--       connection K posts the lines of DIR/conn.K ("game TAB statement",
--       newlines written \n) in order: each request is the current ply of
--       its game, sent once the answer to the one before came back (the
--       next line is taken when an answer arrives). A connection that runs
--       out of statements stops.
--   wrk -t N -c N ... -s http-moves.lua URL -- get GAMES
--       GET /api/v1/games/ID, ID cycling through 1..GAMES.
--   wrk -t N -c N ... -s http-moves.lua URL -- getrange FIRST LAST
--       GET /api/v1/games/ID, ID cycling through FIRST..LAST.
--   wrk -t N -c N ... -s http-moves.lua URL -- page GAMES
--       GET /games/ID (the web page), ID cycling through 1..GAMES.
--   wrk -t N -c N ... -s http-moves.lua URL -- revisit GAMES
--       as get, each with If-None-Match: the ETag this connection was
--       last given for the game (a poller's visit; 304 is the answer
--       wanted once every game was seen).
--
-- At the end it prints "answers: STATUSxCOUNT ...", "requests: N" (answers
-- received), "non-201: N" (moves) or "non-200: N" (get), and "exhausted: N"
-- connections.

local threads = {}
local counter = 0

function setup(thread)
	thread:set("id", counter)
	counter = counter + 1
	table.insert(threads, thread)
end

local lines, nlines, pos, ngames, next_game, asked
local tags = {}
local counts = {}
exhausted = 0

function init(args)
	mode = args[1] or "moves"
	if mode == "moves" then
		local f = assert(io.open(args[2] .. "/conn." .. id, "r"))
		lines = {}
		for l in f:lines() do
			local g, st = l:match("^(%d+)\t(.*)$")
			st = st:gsub("\\n", "\n")
			lines[#lines + 1] = wrk.format("POST",
			    "/api/v1/games/" .. g .. "/actions",
			    { ["Content-Type"] = "text/plain" }, st)
		end
		f:close()
		nlines = #lines
		pos = 0
	elseif mode == "getrange" then
		first_game = tonumber(args[2])
		ngames = tonumber(args[3]) - first_game + 1
		next_game = id % ngames
	else
		first_game = 1
		ngames = tonumber(args[2])
		next_game = id % ngames
	end
end

-- The current statement is sent again until an answer comes: wrk calls
-- request() once more than it sends on the first thread (to check the
-- script), and again after a reconnection.
function request()
	if mode == "moves" then
		if pos >= nlines then
			-- Nothing legal left to send on this connection
			-- (a harmless GET, not counted, if it goes out).
			exhausted = 1
			wrk.thread:stop()
			return wrk.format("GET", "/api/v1")
		end
		return lines[pos + 1]
	end
	next_game = next_game % ngames + 1
	if mode == "page" then
		return wrk.format("GET", "/games/" .. next_game)
	end
	asked = first_game + next_game - 1
	if mode == "revisit" and tags[asked] ~= nil then
		return wrk.format("GET", "/api/v1/games/" .. asked,
		    { ["If-None-Match"] = tags[asked] })
	end
	return wrk.format("GET", "/api/v1/games/" .. asked)
end

function response(status, headers, body)
	if exhausted == 1 then
		return
	end
	counts[status] = (counts[status] or 0) + 1
	if mode == "moves" then
		pos = pos + 1
	end
	if mode == "revisit" and asked ~= nil and headers["ETag"] ~= nil then
		tags[asked] = headers["ETag"]
	end
	if status ~= 201 and status ~= 200 and status ~= 304 and
	    first_bad == nil then
		first_bad = status .. " " .. body
	end
end

-- Pass the counts to the main state (done() sees only thread:get()).
local function publish()
	local s = ""
	for k, v in pairs(counts) do
		s = s .. k .. "=" .. v .. " "
	end
	return s
end

function done(summary, latency, requests)
	local total, bad = {}, 0
	local want = 201
	local nexh = 0
	for _, t in ipairs(threads) do
		local c = t:get("answers") or ""
		for k, v in c:gmatch("(%d+)=(%d+)") do
			total[k] = (total[k] or 0) + tonumber(v)
		end
		if t:get("mode") == "revisit" then
			want = 304
		elseif t:get("mode") ~= "moves" then
			want = 200
		end
		nexh = nexh + (t:get("exhausted") or 0)
		local fb = t:get("first_bad")
		if fb ~= nil and first_shown == nil then
			first_shown = fb
		end
	end
	local line = "answers:"
	for k, v in pairs(total) do
		line = line .. " " .. k .. "x" .. v
		if tonumber(k) ~= want then
			bad = bad + v
		end
	end
	print(line)
	print("requests: " .. summary.requests)
	print("non-" .. want .. ": " .. bad)
	print("exhausted: " .. nexh)
	if first_shown ~= nil then
		print("first refusal: " .. first_shown:gsub("\n", " "))
	end
end

-- wrk calls response() in the thread; keep the published globals current.
local response0 = response
function response(status, headers, body)
	response0(status, headers, body)
	answers = publish()
end
