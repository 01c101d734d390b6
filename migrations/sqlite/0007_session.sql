-- Browser sessions of the web UI. A session is opened by signing in with a token
-- and lasts until sign-out, its own expiry, or its token's revocation or expiry
-- (the lookup joins the token, so a dead token ends its sessions at once).
create table session (
    id integer primary key,
    hash text not null unique,              -- sha256 (hex) of the session id in the cookie; the id itself is never stored
    token_id integer not null references token(id),
    csrf text not null,                     -- the per-session token every form must echo; useless without the cookie
    created_at integer not null,
    expires_at integer not null
);
create index session_by_token on session (token_id);
