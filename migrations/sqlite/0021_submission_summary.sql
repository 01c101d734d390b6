-- What a listing shows of a submission beside its verdict: a program's
-- language, and the most CPU time and memory one run of its latest
-- judgement took (null for answers and before the first verdict).
alter table submission add column language text;
alter table submission add column max_cpu_ms integer;
alter table submission add column max_memory_kib integer;

update submission set language = json_extract(payload, '$.language') where kind = 'program';

update submission set
  max_cpu_ms = (select max(r.cpu_ms) from result r where r.judgement_id =
    (select max(j.id) from judgement j where j.submission_id = submission.id)),
  max_memory_kib = (select max(r.memory_kib) from result r where r.judgement_id =
    (select max(j.id) from judgement j where j.submission_id = submission.id))
where kind = 'program' and verdict is not null;
