//! AWR HTML report headers on the shared corpus (`../shared/corpus/awr`, skipped when absent).

use crate::common::awr_corpus;
use sizer_parsers::{parse_file, Parsed};

/// The report's title is its first `<title>`: an Exadata report carries a second one,
/// `Exadata Configuration and Statistics`, before its Exadata section.
#[test]
fn the_title_is_the_reports_first() {
    let Some(dir) = awr_corpus() else { return };
    for (file, title) in [
        (
            "azure-lab1-dbv-19c-exadata-rac-global.html",
            "AWR RAC Report for DB: DBV, Snaps: 12373-12541",
        ),
        (
            "azure-lab1-dbu-19c-exadata-rac-global.html",
            "AWR RAC Report for DB: DBU, Snaps: 15883-16027",
        ),
        (
            "eyko139-prdg1-18c-rac-instance.html",
            "AWR Report for DB: PRDG, Inst: PRDG1, Snaps: 237812-237837",
        ),
    ] {
        let Ok(Parsed::Awr(r)) = parse_file(&dir.join(file)) else {
            panic!("{file}: not read as an AWR report");
        };
        assert_eq!(r.title, title, "{file}");
    }
}
