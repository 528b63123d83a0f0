//! Which host an OS disk log belongs to, and how the answer says where the name came from.
//!
//! In order:
//! 1. the host prefix of a capture whose every line carried one (`pdsh`, `clush`, `parallel
//!    --tag`: `object3: Linux 3.13.0 (object3) …`; [`sizer_parsers::prefix`]): each host's lines
//!    are its own source, named by its prefix, the name the user's fan-out gave it (two hosts of
//!    a lab whose banners both print `localhost` stay apart);
//! 2. the host name its banner prints (`Linux 5.8.0 (db01) …`, nmon `AAA,host`, sadf's
//!    `hostname` field);
//! 3. `--host NAME`, for a log that prints none (an iostat log cut from a terminal, without its
//!    banner line; AIX and Solaris `iostat`, which print no host name);
//! 4. else the file: `(no host name) <path>`.
//!
//! Cases 1, 3 and 4 are said in the host's warnings (`naming_warning`).

use crate::ingest::HostSource;
use crate::settings::DeviceSettings;
use crate::warning::Warning;

/// The host name the banner prints, when it prints one.
fn banner_host(s: &HostSource) -> Option<&str> {
    s.header
        .as_ref()
        .map(|h| h.host.trim())
        .filter(|h| !h.is_empty())
}

/// The host a source belongs to (see the module docs for the order).
pub(crate) fn host_key(s: &HostSource, dev: &DeviceSettings) -> String {
    if let Some(p) = &s.host_prefix {
        return p.clone();
    }
    if let Some(h) = banner_host(s) {
        return h.to_string();
    }
    match &dev.host {
        Some(h) => h.clone(),
        None => format!("(no host name) {}", s.file),
    }
}

/// The warning that says where the host name of `s` came from, when it is not the banner's.
pub(crate) fn naming_warning(s: &HostSource, dev: &DeviceSettings) -> Option<Warning> {
    if let Some(p) = &s.host_prefix {
        let banner = match banner_host(s) {
            Some(h) if h != p => format!(" (its banner prints the host name `{h}`)"),
            _ => String::new(),
        };
        return Some(Warning {
            id: "host_from_prefix".into(),
            message: format!(
                "{}: a capture of several hosts' output (every line prefixed by pdsh, clush or parallel --tag, or blocks under Ansible result headers): the lines of `{p}` are read as this host's log{banner}; line numbers count this host's lines only",
                s.file
            ),
        });
    }
    if banner_host(s).is_some() {
        return None;
    }
    Some(match &dev.host {
        Some(h) => Warning {
            id: "host_from_option".into(),
            message: format!(
                "{}: the log prints no host name: named `{h}` from --host",
                s.file
            ),
        },
        None => Warning {
            id: "host_from_file_name".into(),
            message: format!(
                "{}: the log prints no host name (no `Linux … (host) …` banner line, or a format that prints none): the host is named after the file; pass --host NAME to name it",
                s.file
            ),
        },
    })
}
