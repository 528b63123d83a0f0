//! The integration tests, one binary (each module was a test crate of its own).

mod awr_html;
mod awr_miner;
mod common;
mod conformance;
mod esxtop;
mod fixtures;
mod hcibench;
mod histogram;
mod host_cpu;
mod html_equivalence;
mod iostat;
mod iostat_json;
mod nmon;
mod os_cpu;
mod oswatcher;
mod prefix;
mod registry;
mod sadf;
mod sar;
mod sink;
mod statspack;
mod text;
mod unix_iostat;
mod values;
mod vsan;
mod wide;
