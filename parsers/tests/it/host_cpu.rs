//! Host CPU (`AwrReport::host_cpu`) from AWR HTML, AWR text, Statspack and RAC global reports.
//! Each figure was read by hand from the file named above it.

use crate::common::*;

use sizer_parsers::awr::{AwrReport, HostCpu};
use sizer_parsers::{parse_file, Parsed};

fn corpus_report(name: &str) -> Option<AwrReport> {
    let p = awr_corpus()?.join(name);
    match parse_file(&p) {
        Ok(Parsed::Awr(r)) => Some(*r),
        Ok(other) => panic!("{name}: not an AWR report: {other:?}"),
        Err(e) => panic!("{name}: {e}"),
    }
}

fn only(r: &AwrReport) -> &HostCpu {
    assert_eq!(r.host_cpu.len(), 1, "{:?}", r.host_cpu);
    &r.host_cpu[0]
}

#[test]
fn db1uat_html_host_cpu_and_os_statistics() {
    // sarthi2020-db1uat-11.2.0.3-aix-single.html, `Host CPU (CPUs: 8 Cores: 2 Sockets: )`:
    // %User 57.3, %System 35.0, %WIO 3.3, %Idle 7.8. `Operating System Statistics`:
    // BUSY_TIME 2,665,943, IDLE_TIME 225,076, IOWAIT_TIME 95,486 (hundredths of a second).
    let Some(r) = corpus_report("sarthi2020-db1uat-11.2.0.3-aix-single.html") else {
        return;
    };
    let h = only(&r);
    assert_eq!(h.instance, None);
    close(h.user_pct, 57.3, "%User");
    close(h.system_pct, 35.0, "%System");
    close(h.wio_pct, 3.3, "%WIO");
    close(h.idle_pct, 7.8, "%Idle");
    assert_eq!(h.busy_pct, None);
    close(h.busy_time_s, 26_659.43, "BUSY_TIME s");
    close(h.idle_time_s, 2_250.76, "IDLE_TIME s");
    close(h.iowait_time_s, 954.86, "IOWAIT_TIME s");
}

#[test]
fn bpsc_text_host_cpu_and_os_statistics() {
    // jasmin-bpsc-12.2.0.1-aix-single-awrrpt.txt lines 98-102 (`Host CPU`): %User 2.4,
    // %System 0.5, %WIO 0.0, %Idle 97.1; `Operating System Statistics` (line 173 on):
    // BUSY_TIME 423,547, IDLE_TIME 14,040,369, IOWAIT_TIME 2,822 (AVG_BUSY_TIME 9,969 is not it).
    let Some(r) = corpus_report("jasmin-bpsc-12.2.0.1-aix-single-awrrpt.txt") else {
        return;
    };
    let h = only(&r);
    close(h.user_pct, 2.4, "%User");
    close(h.system_pct, 0.5, "%System");
    close(h.wio_pct, 0.0, "%WIO");
    close(h.idle_pct, 97.1, "%Idle");
    close(h.busy_time_s, 4_235.47, "BUSY_TIME s");
    close(h.idle_time_s, 140_403.69, "IDLE_TIME s");
    close(h.iowait_time_s, 28.22, "IOWAIT_TIME s");
}

#[test]
fn igt_statspack_host_cpu_and_os_statistics() {
    // theyanvictor-igt-11.2.0.4-statspack.txt lines 65-69 (`Host CPU  (CPUs: 12 …)`: User 0.93,
    // System 0.49, Idle 98.56, WIO 0.00) and 1554-1561 (`OS Statistics`: BUSY_TIME 1,490,571,
    // IDLE_TIME 101,992,240, IOWAIT_TIME 3,310).
    let Some(r) = corpus_report("theyanvictor-igt-11.2.0.4-statspack.txt") else {
        return;
    };
    let h = only(&r);
    close(h.user_pct, 0.93, "User");
    close(h.system_pct, 0.49, "System");
    close(h.idle_pct, 98.56, "Idle");
    close(h.wio_pct, 0.0, "WIO");
    close(h.busy_time_s, 14_905.71, "BUSY_TIME s");
    close(h.idle_time_s, 1_019_922.40, "IDLE_TIME s");
    close(h.iowait_time_s, 33.10, "IOWAIT_TIME s");
}

#[test]
fn rac_global_html_os_statistics_by_instance() {
    // azure-lab1-dbv-19c-exadata-rac-global.html, `OS Statistics By Instance`: I# 1 % Busy
    // 18.10, % WIO 0.06, % Idl 81.90, Busy 3,000,647.27 s, Idle 13,580,927.74 s; I# 2 % Busy
    // 17.52, Busy 2,905,931.80 s, Idle 13,682,459.20 s. The `Sum` row is not an instance.
    let Some(r) = corpus_report("azure-lab1-dbv-19c-exadata-rac-global.html") else {
        return;
    };
    assert_eq!(r.host_cpu.len(), 2, "{:?}", r.host_cpu);
    let (a, b) = (&r.host_cpu[0], &r.host_cpu[1]);
    assert_eq!((a.instance, b.instance), (Some(1), Some(2)));
    close(a.busy_pct, 18.10, "1 % Busy");
    close(a.wio_pct, 0.06, "1 % WIO");
    close(a.idle_pct, 81.90, "1 % Idl");
    close(a.busy_time_s, 3_000_647.27, "1 Busy s");
    close(a.idle_time_s, 13_580_927.74, "1 Idle s");
    close(b.busy_pct, 17.52, "2 % Busy");
    close(b.busy_time_s, 2_905_931.80, "2 Busy s");
    close(b.idle_time_s, 13_682_459.20, "2 Idle s");
    assert_eq!(a.iowait_time_s, None);
}

#[test]
fn rac_global_text_fixture_os_statistics_by_instance() {
    // fixtures/awr/text/awrgrpt_19c_small.txt lines 58-61: I# 1 % Busy 35.20, % WIO 0.20,
    // % Idl 64.80; I# 2 % Busy 24.80, % Idl 75.20; no Busy/Idle times in this table.
    let r = awr("awr/text/awrgrpt_19c_small.txt");
    assert_eq!(r.host_cpu.len(), 2, "{:?}", r.host_cpu);
    close(r.host_cpu[0].busy_pct, 35.20, "1 % Busy");
    close(r.host_cpu[0].wio_pct, 0.20, "1 % WIO");
    close(r.host_cpu[0].idle_pct, 64.80, "1 % Idl");
    close(r.host_cpu[1].busy_pct, 24.80, "2 % Busy");
    assert_eq!(r.host_cpu[1].busy_time_s, None);
}

#[test]
fn pdb_report_without_host_cpu_is_empty() {
    // pcambell-idcdb1-12.2.0.1-rac-pdb-report.html prints neither Host CPU nor OS statistics.
    let Some(r) = corpus_report("pcambell-idcdb1-12.2.0.1-rac-pdb-report.html") else {
        return;
    };
    assert!(r.host_cpu.is_empty(), "{:?}", r.host_cpu);
}

#[test]
fn text_11g_host_cpu_title_with_counts_and_os_statistics() {
    // The 11g text title carries the counts (`Host CPU (CPUs:    8 Cores:    2 Sockets: )`, as
    // in db1uat's HTML), and the OS statistics table prints `Statistic  Value  End Value`.
    // Inserted into fixtures/awr/text/awrrpt_11203_small.txt before its Instance Efficiency
    // section: %Idle 7.8 and BUSY_TIME 2,665,943 / IDLE_TIME 225,076 (db1uat's figures).
    let base = std::fs::read_to_string(fixture("awr/text/awrrpt_11203_small.txt")).unwrap();
    let block = "Host CPU (CPUs:    8 Cores:    2 Sockets: )
~~~~~~~~              Load Average
                      Begin       End     %User   %System      %WIO     %Idle
                  --------- --------- --------- --------- --------- ---------
                      14.47     17.52      57.3      35.0       3.3       7.8

Operating System Statistics       DB/Inst: X/x  Snaps: 1-2

Statistic                                  Value        End Value
------------------------- ---------------------- ----------------
BUSY_TIME                              2,665,943
IDLE_TIME                                225,076
IOWAIT_TIME                               95,486
LOAD                                          14               18

";
    let at = base
        .find("Instance Efficiency Percentages")
        .expect("section");
    let text = format!("{}{}{}", &base[..at], block, &base[at..]);
    let r = parse_str(&text).unwrap();
    let h = only(&r);
    close(h.user_pct, 57.3, "%User");
    close(h.idle_pct, 7.8, "%Idle");
    close(h.wio_pct, 3.3, "%WIO");
    close(h.busy_time_s, 26_659.43, "BUSY_TIME s");
    close(h.idle_time_s, 2_250.76, "IDLE_TIME s");
    close(h.iowait_time_s, 954.86, "IOWAIT_TIME s");
}
