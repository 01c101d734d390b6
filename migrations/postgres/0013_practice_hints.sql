-- Whether an interactive problem's practice page explains positions (each
-- component's value, the winning moves): problem.toml `practice_hints`, on by
-- default, so no resync is needed.
alter table problem add column practice_hints boolean not null default true;
