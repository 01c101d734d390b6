-- Answers stay secret: what contestants see of a problem's judgements, and
-- whether they may run custom checks, are set per problem in problem.toml.

-- `full`, `verdict` or `none` (domain::Feedback); `verdict` never shows a
-- reference output to contestants.
alter table problem add column feedback text not null default 'verdict';
-- 1: contestants may submit custom checks (an oracle for any input).
alter table problem add column custom_checks integer not null default 0;
-- Force the next catalog sync to write the new columns: a definition hash
-- that matches no folder makes every problem update once.
update problem set definition_hash = '';

-- A result's full difference, naming the expected token; `message` keeps the
-- wording that is safe for contestants.
alter table result add column detail text;
-- Messages written before this migration named the expected token ("token 3
-- (line 2): expected `Bob`, found `Alice`"): keep the whole text as the
-- detail and cut the message before the expected token.
update result set detail = message,
    message = substr(message, 1, instr(message, ': expected ') - 1) || ': wrong answer'
    where instr(message, ': expected ') > 0;
update judgement
    set message = substr(message, 1, instr(message, ': expected ') - 1) || ': wrong answer'
    where instr(message, ': expected ') > 0;
update submission
    set message = substr(message, 1, instr(message, ': expected ') - 1) || ': wrong answer'
    where instr(message, ': expected ') > 0;
