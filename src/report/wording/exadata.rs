//! Words of the Exadata figures (`crate::metrics::exadata`): the small-read basis and the off-Exadata
//! estimate.

use std::fmt::{self, Display, Formatter};

use crate::metrics::exadata::{OffExadata, SmallReadBasis};
use crate::report::fmt::{figure_text, fmt_trim};

impl Display for SmallReadBasis {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SmallReadBasis::TotalMinusMultiblock => {
                "total read requests − multiblock read requests"
            }
            SmallReadBasis::SingleBlockReadWaits => {
                "the 'cell single block physical read' (+ 'db file sequential read') waits, not total − multiblock requests, which would count Smart Scan requests as small reads"
            }
        })
    }
}

impl Display for OffExadata {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} IOPS estimated off Exadata ({} × the {} IOPS required on Exadata, from its measured rates; throughput stays {} MB/s): a planning figure, the sizing uses the required IOPS on Exadata",
            figure_text(&self.estimated_iops),
            fmt_trim(self.factor),
            figure_text(&self.required_iops),
            figure_text(&self.total_mb_s),
        )
    }
}
