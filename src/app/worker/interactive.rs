//! Running a program against an interactive problem's judge: the program in
//! the sandbox, the judge (the solver core's [`Referee`], trusted code) on a
//! thread of this process, the two joined by two pipes.
//!
//! Nothing can deadlock for longer than the run's wall limit: the judge
//! reads at most [`MAX_LINE_BYTES`] of a line, and every read or write it
//! blocks on ends when the program's ends of the pipes close, which happens
//! when the run is over (the program exited, or the sandbox killed it at a
//! limit) and [`play`] drops them.

use std::{
    fs::File,
    io::{self, BufRead, BufReader, Write},
};

use crate::{
    sandbox::{Run, RunReport, Sandbox, SandboxError, Stdio},
    solver::interactive::{Foul, Heard, MAX_LINE_BYTES, Referee},
};

/// How the match went, as the judge saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MatchEnd {
    /// The program won every game.
    Won,
    /// The judge stopped the match: a move, a line or a side was wrong, or
    /// the program lost a game.
    Fouled(Foul),
    /// The program stopped talking before the match was over (it exited,
    /// crashed, was killed, or closed its output); the run's report says
    /// which.
    Silent(Foul),
    /// The judge itself failed (a panic in the solver core): not the
    /// program's fault.
    JudgeFailed,
}

/// Runs `run` (its stdio replaced by pipes to the judge) against `referee`.
/// An `Err` is the sandbox's failure, not the program's.
pub fn play(
    sandbox: &Sandbox,
    run: &Run<'_>,
    referee: &mut dyn Referee,
) -> Result<(RunReport, MatchEnd), SandboxError> {
    let pipes = |what: &'static str| {
        move |source| SandboxError::Io {
            what: format!("making the pipe {what}"),
            cause: source,
        }
    };
    let (program_reads, judge_writes) = io::pipe().map_err(pipes("to the program"))?;
    let (judge_reads, program_writes) = io::pipe().map_err(pipes("from the program"))?;
    let (program_stdin, program_stdout) = (
        File::from(std::os::fd::OwnedFd::from(program_reads)),
        File::from(std::os::fd::OwnedFd::from(program_writes)),
    );
    std::thread::scope(|scope| {
        let judge = scope.spawn(move || referee_loop(referee, judge_writes, judge_reads));
        let report = sandbox.run(&Run {
            stdio: Stdio::Pipes {
                stdin: &program_stdin,
                stdout: &program_stdout,
            },
            ..run.clone()
        });
        // The program is gone: whatever the judge waits on now ends.
        drop((program_stdin, program_stdout));
        let end = judge.join().unwrap_or(MatchEnd::JudgeFailed);
        report.map(|report| (report, end))
    })
}

fn referee_loop(
    referee: &mut dyn Referee,
    mut to_program: io::PipeWriter,
    from_program: io::PipeReader,
) -> MatchEnd {
    let silent = |referee: &mut dyn Referee| {
        MatchEnd::Silent(referee.foul("the program stopped before the match was over"))
    };
    let opening = referee.opening();
    if to_program.write_all(opening.as_bytes()).is_err() {
        return silent(referee);
    }
    let mut reader = BufReader::with_capacity(MAX_LINE_BYTES + 2, from_program);
    let mut line = Vec::with_capacity(MAX_LINE_BYTES);
    loop {
        match read_line(&mut reader, &mut line) {
            Ok(LineRead::Line) => {}
            Ok(LineRead::TooLong) => {
                return MatchEnd::Fouled(
                    referee.foul(&format!("a line longer than {MAX_LINE_BYTES} bytes")),
                );
            }
            Ok(LineRead::End) | Err(_) => return silent(referee),
        }
        match referee.hear(&line) {
            Heard::Reply(text) => {
                if !text.is_empty() && to_program.write_all(text.as_bytes()).is_err() {
                    return silent(referee);
                }
            }
            Heard::Over { reply, result } => {
                // The program may be gone already; the verdict stands.
                let _ = to_program.write_all(reply.as_bytes());
                return match result {
                    Ok(()) => MatchEnd::Won,
                    Err(foul) => MatchEnd::Fouled(foul),
                };
            }
        }
    }
}

#[derive(Debug, PartialEq, Eq)]
enum LineRead {
    /// `line` holds the next line, without its newline (the last line may
    /// lack one).
    Line,
    /// The line is longer than [`MAX_LINE_BYTES`].
    TooLong,
    /// The program closed its output.
    End,
}

/// Reads one line of at most [`MAX_LINE_BYTES`] bytes into `line`, never
/// more than that into memory.
fn read_line(reader: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<LineRead> {
    line.clear();
    loop {
        let buffer = reader.fill_buf()?;
        if buffer.is_empty() {
            return Ok(if line.is_empty() {
                LineRead::End
            } else {
                LineRead::Line
            });
        }
        let (piece, used, ended) = match buffer.iter().position(|&b| b == b'\n') {
            Some(at) => (&buffer[..at], at + 1, true),
            None => (buffer, buffer.len(), false),
        };
        if line.len() + piece.len() > MAX_LINE_BYTES {
            return Ok(LineRead::TooLong);
        }
        line.extend_from_slice(piece);
        reader.consume(used);
        if ended {
            return Ok(LineRead::Line);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<Result<Vec<u8>, LineRead>> {
        let mut reader = BufReader::with_capacity(7, input);
        let mut line = Vec::new();
        let mut out = Vec::new();
        loop {
            match read_line(&mut reader, &mut line).unwrap() {
                LineRead::Line => out.push(Ok(line.clone())),
                LineRead::End => return out,
                LineRead::TooLong => {
                    out.push(Err(LineRead::TooLong));
                    return out;
                }
            }
        }
    }

    #[test]
    fn lines_are_read_across_buffer_refills() {
        assert_eq!(
            lines(b"First\n1 2\n\nlast"),
            vec![
                Ok(b"First".to_vec()),
                Ok(b"1 2".to_vec()),
                Ok(Vec::new()),
                Ok(b"last".to_vec())
            ]
        );
    }

    #[test]
    fn a_line_over_the_limit_is_refused_without_reading_it_all() {
        let mut flood = vec![b'1'; MAX_LINE_BYTES];
        flood.push(b'\n');
        assert_eq!(lines(&flood), vec![Ok(vec![b'1'; MAX_LINE_BYTES])]);
        let flood = vec![b'1'; 10 * MAX_LINE_BYTES];
        assert_eq!(lines(&flood), vec![Err(LineRead::TooLong)]);
    }
}
