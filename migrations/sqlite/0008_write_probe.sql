-- One row that `GET /api/health` rewrites while writes are failing, to learn
-- whether the database takes writes again (a disk that filled up and was
-- freed). It holds no data anyone reads.
create table write_probe (
    id integer primary key check (id = 1),
    written_at integer not null,
    created_at integer not null
);
