//! The Lua scripts. Each runs atomically on the one slot of its user's keys; `redis::Script`
//! sends it by SHA1 (`EVALSHA`) and loads it once on `NOSCRIPT`.

use std::sync::LazyLock;

use redis::Script;

/// Claim a session. KEYS: meta, turns, lease, edits. ARGV: node, lease ms, `create` (1/0).
/// Returns `{0}` when the session's existence does not fit the claim, else
/// `{token, previous lease holder or '', head or '', edit count, edits..., turns...}`.
pub static CLAIM: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local head = redis.call('HGET', KEYS[1], 'head')
local create = ARGV[3] == '1'
if (create and head) or ((not create) and (not head)) then return {0} end
local token = redis.call('HINCRBY', KEYS[1], 'fence', 1)
local previous = redis.call('GET', KEYS[3]) or ''
redis.call('SET', KEYS[3], ARGV[1], 'PX', ARGV[2])
if create then return {token, previous, ''} end
local reply = {token, previous, head}
local edits = redis.call('LRANGE', KEYS[4], 0, -1)
reply[#reply + 1] = #edits
for _, edit in ipairs(edits) do reply[#reply + 1] = edit end
for _, turn in ipairs(redis.call('LRANGE', KEYS[2], 0, -1)) do reply[#reply + 1] = turn end
return reply
",
    )
});

/// Write a checkpoint. KEYS: meta, turns, user, lease, edits. ARGV: token, version, head
/// (whole, or edits), turns_from, live (1/0), ttl ms (0: none), lease node ('' for none),
/// lease ms, the version the edits apply to ('' when the head is whole), then the turns from
/// `turns_from` on (the session id the live check needs is the meta key's tail). A write
/// extends the writer's lease; the keys' time to live is set again only when it is off by
/// more than 1 % (so the append-only file is not filled with `PEXPIRE`s). Returns `ok`,
/// `fenced` (another claim), `stale` (an older version), `inactive`, or `whole` (the edits'
/// version is not the stored one: nothing was written).
pub static SAVE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
if redis.call('HGET', KEYS[1], 'fence') ~= ARGV[1] then return 'fenced' end
local stored = tonumber(redis.call('HGET', KEYS[1], 'ver') or '0')
if stored >= tonumber(ARGV[2]) then return 'stale' end
if ARGV[5] == '1' and redis.call('HGET', KEYS[3], 'active') ~= string.match(KEYS[1], '}:s:(.+)$') then
  return 'inactive'
end
if ARGV[9] == '' then
  redis.call('HSET', KEYS[1], 'ver', ARGV[2], 'head', ARGV[3])
  redis.call('DEL', KEYS[5])
elseif tonumber(ARGV[9]) ~= stored then
  return 'whole'
else
  redis.call('HSET', KEYS[1], 'ver', ARGV[2])
  redis.call('RPUSH', KEYS[5], ARGV[3])
end
local from = tonumber(ARGV[4])
if from == 0 then
  redis.call('DEL', KEYS[2])
else
  redis.call('LTRIM', KEYS[2], 0, from - 1)
end
if #ARGV > 9 then redis.call('RPUSH', KEYS[2], unpack(ARGV, 10)) end
local ttl = tonumber(ARGV[6])
for _, key in ipairs({KEYS[1], KEYS[2], KEYS[5]}) do
  if ttl == 0 then
    redis.call('PERSIST', key)
  elseif math.abs(redis.call('PTTL', key) - ttl) > ttl / 100 then
    redis.call('PEXPIRE', key, ttl)
  end
end
if ARGV[7] ~= '' then redis.call('SET', KEYS[4], ARGV[7], 'PX', ARGV[8]) end
return 'ok'
",
    )
});

/// Read a checkpoint. KEYS: meta, turns, edits. Returns `{}` or
/// `{head, edit count, edits..., turns...}`.
pub static READ: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local head = redis.call('HGET', KEYS[1], 'head')
if not head then return {} end
local reply = {head}
local edits = redis.call('LRANGE', KEYS[3], 0, -1)
reply[#reply + 1] = #edits
for _, edit in ipairs(edits) do reply[#reply + 1] = edit end
for _, turn in ipairs(redis.call('LRANGE', KEYS[2], 0, -1)) do reply[#reply + 1] = turn end
return reply
",
    )
});

/// Renew a lease. KEYS: meta, lease. ARGV: token, node, lease ms. Returns 1, or 0 when a
/// newer claim holds the session.
pub static RENEW: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
if redis.call('HGET', KEYS[1], 'fence') ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
return 1
",
    )
});

/// Release a lease. KEYS: meta, lease. ARGV: token.
pub static RELEASE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
if redis.call('HGET', KEYS[1], 'fence') == ARGV[1] then redis.call('DEL', KEYS[2]) end
return 1
",
    )
});

/// Compare-and-set a user record. KEYS: user. ARGV: version, record, active session ('').
/// Returns 1, or 0 when the stored version is not `version - 1`.
pub static SAVE_USER: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local stored = tonumber(redis.call('HGET', KEYS[1], 'ver') or '0')
if stored + 1 ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'ver', ARGV[1], 'rec', ARGV[2], 'active', ARGV[3])
return 1
",
    )
});

/// Claim a side record. KEYS: the record. ARGV: owner, the cold record (stored when
/// there is none). Returns `{fence, previous owner or '', record}`.
pub static CLAIM_SIDE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local rec = redis.call('HGET', KEYS[1], 'rec')
if not rec then
  rec = ARGV[2]
  redis.call('HSET', KEYS[1], 'rec', rec)
end
local previous = redis.call('HGET', KEYS[1], 'owner') or ''
local fence = redis.call('HINCRBY', KEYS[1], 'fence', 1)
redis.call('HSET', KEYS[1], 'owner', ARGV[1])
return {fence, previous, rec}
",
    )
});

/// Write a side record. KEYS: the record. ARGV: fence, record. Returns 1, or 0 when a
/// newer claim holds the record.
pub static SAVE_SIDE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
if redis.call('HGET', KEYS[1], 'fence') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'rec', ARGV[2])
return 1
",
    )
});
