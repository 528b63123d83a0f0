//! Prints the typed records of each file given as JSON (a debugging aid).
fn main() {
    for p in std::env::args().skip(1) {
        match sizer_parsers::parse_file(std::path::Path::new(&p)) {
            Ok(r) => println!("{}", serde_json::to_string_pretty(&r).unwrap()),
            Err(e) => eprintln!("{p}: {e}"),
        }
    }
}
