//! A second problem for the fixture catalog, one with a Grundy plot: the
//! fixture holds only `nim`, whose plot would say nothing (g(n) = n).

use crate::helpers::TestDir;

/// Writes `problems/xy-game/` with one sample testcase into `dir`, before
/// the app starts and syncs the catalog.
pub fn add_xy_game(dir: &TestDir) {
    let folder = dir.path().join("problems").join("xy-game");
    std::fs::create_dir_all(folder.join("testcases")).expect("create the problem folder");
    std::fs::write(
        folder.join("problem.toml"),
        "id = \"xy-game\"\ntitle = \"XY Game\"\nsource = \"nimjudge\"\ntime_limit_ms = 3000\n\
         memory_limit_mib = 1024\n\n[[testcase]]\nname = \"sample-1\"\norigin = \"sample\"\n",
    )
    .expect("write problem.toml");
    std::fs::write(
        folder.join("testcases").join("sample-1.in"),
        "1\n2 3 5\n4 12\n",
    )
    .expect("write the sample");
    std::fs::write(folder.join("statement.md"), "# XY Game\n").expect("write the statement");
}
