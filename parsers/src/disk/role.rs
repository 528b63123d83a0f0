//! What a device name stands for (whole disk, partition, mapper, software RAID, multipath,
//! group, …), so that host totals add each IO once.

use serde::Serialize;

/// What a device name stands for, for host totals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DeviceRole {
    /// A whole disk or LUN (`sda`, `nvme0n1`, `vda`, `xvdf`, `hdisk3`, `sd0`, `c0t0d0`, `dev8-0`).
    Disk,
    /// A partition or slice of a disk (`sda1`, `nvme0n1p2`, `mmcblk0p1`, `dev8-1`, `sd0,a`,
    /// `c0t0d0s0`): its IO is also counted on its disk.
    Partition,
    /// A device-mapper device (`dm-0`, LVM `vg-lv` from `-N`, multipath `mpatha`, `dev253-0`):
    /// its IO is also counted on the disks below it.
    Mapper,
    /// Software RAID (`md0`): its IO is also counted on its member disks (with the RAID's
    /// write amplification).
    SoftwareRaid,
    /// A group total (iostat `-g`, nmon disk groups): double-counts its members.
    Group,
    /// Loop, RAM, optical and floppy devices (`loop0`, `ram0`, `sr0`, `fd0`, `zram0`): not storage
    /// the database uses.
    Virtual,
    /// A block device stacked on other block devices of the host, not device-mapper: `bcache0`
    /// (a cache device over its backing and caching devices), `drbd0` (replicated over a backing
    /// device), `zd0` (a ZFS zvol over the pool's disks), `emcpowera` (EMC PowerPath over its
    /// `sd` paths): its IO is also counted on the devices below it.
    Stacked,
    /// One path to a device whose multipath node is listed too: NVMe native multipath's
    /// controller nodes (`nvme0c0n1`, `nvme0c1n1` under `nvme0n1`): its IO is also counted on
    /// that node.
    Path,
    /// A name no rule recognises (a filesystem UUID or label from `sar -j UUID|LABEL`, an LVM PV
    /// id, a driver sizer does not know): listed with its figures and a warning, never added to
    /// the host total silently (it may be a disk, or a device over one).
    Unknown,
}

impl DeviceRole {
    /// Stable id (`disk`, `partition`, `mapper`, `software_raid`, `group`, `virtual`).
    pub fn id(self) -> &'static str {
        match self {
            DeviceRole::Disk => "disk",
            DeviceRole::Partition => "partition",
            DeviceRole::Mapper => "mapper",
            DeviceRole::SoftwareRaid => "software_raid",
            DeviceRole::Group => "group",
            DeviceRole::Virtual => "virtual",
            DeviceRole::Stacked => "stacked",
            DeviceRole::Path => "path",
            DeviceRole::Unknown => "unknown",
        }
    }
}

fn ends_digit(s: &str) -> bool {
    s.chars().last().is_some_and(|c| c.is_ascii_digit())
}

/// Classifies a device name as printed by a Linux, AIX, Solaris or HP-UX tool.
///
/// Linux names follow the kernel's `Documentation/admin-guide/devices.txt` conventions:
/// `sd*`/`vd*`/`xvd*`/`hd*` disks end in a letter and their partitions in a number;
/// `nvme*n*`, `mmcblk*`, `loop*` and `md*` partitions carry a `p<N>` suffix; `dm-N` and names with
/// a `-` from `iostat -N` (`vg0-lv_root`) are device-mapper. sar without `-p` prints `devM-N`
/// (major-minor): major 8, 65–71, 128–135 are SCSI disks with 16 minors per disk (minor % 16 ≠
/// 0 is a partition), 252/253/254 are the usual dynamic device-mapper majors, 9 is md, 7 is loop,
/// 259 is blkext (NVMe namespaces and partitions alike: read as a disk), 202 is Xen `xvd` (16
/// minors per disk). Solaris `sd0,a` and
/// `c0t0d0s0` are slices. `group` short-circuits to [`DeviceRole::Group`].
pub fn classify(name: &str, group: bool) -> DeviceRole {
    if group {
        return DeviceRole::Group;
    }
    let n = name.trim().trim_start_matches("/dev/");
    if let Some(mm) = n.strip_prefix("dev") {
        if let Some((maj, min)) = mm.split_once('-') {
            if let (Ok(maj), Ok(min)) = (maj.parse::<u32>(), min.parse::<u32>()) {
                return match maj {
                    8 | 65..=71 | 128..=135 | 202 => {
                        if min % 16 == 0 {
                            DeviceRole::Disk
                        } else {
                            DeviceRole::Partition
                        }
                    }
                    3 | 22 => {
                        if min % 64 == 0 {
                            DeviceRole::Disk
                        } else {
                            DeviceRole::Partition
                        }
                    }
                    252..=254 => DeviceRole::Mapper,
                    9 => DeviceRole::SoftwareRaid,
                    1 | 2 | 7 | 11 => DeviceRole::Virtual,
                    // blkext: NVMe namespaces and their partitions alike; a namespace
                    // (nvme0n1 = 259:0) is the common case, so a disk (use `sar -p` names or
                    // --devices when partitions are listed too).
                    259 => DeviceRole::Disk,
                    _ => DeviceRole::Disk,
                };
            }
        }
    }
    if let Some(role) = persistent_name(n) {
        return role;
    }
    if let Some(role) = stacked_or_path(n) {
        return role;
    }
    // Solaris/illumos pseudo devices: RAM disks and loopback files.
    if n.starts_with("ramdisk") || n.starts_with("lofi") {
        return DeviceRole::Virtual;
    }
    // Solaris Volume Manager metadevices (`d0`, `d15`): volumes over disks.
    if let Some(rest) = n.strip_prefix('d') {
        if !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit()) {
            return DeviceRole::Mapper;
        }
    }
    for v in ["loop", "ram", "zram", "sr", "fd", "scd", "nbd", "cd"] {
        if let Some(rest) = n.strip_prefix(v) {
            if rest.is_empty() || rest.chars().all(|c| c.is_ascii_digit()) {
                return DeviceRole::Virtual;
            }
        }
    }
    if n.starts_with("dm-") || n.starts_with("mpath") || n.starts_with("VxVM") {
        return DeviceRole::Mapper;
    }
    if let Some(rest) = n.strip_prefix("md") {
        if rest.contains('p') && ends_digit(rest) {
            return DeviceRole::Partition;
        }
        if rest.chars().all(|c| c.is_ascii_digit()) && !rest.is_empty() {
            return DeviceRole::SoftwareRaid;
        }
    }
    // NVMe, MMC: `nvme0n1` disk, `nvme0n1p1` partition; `mmcblk0` / `mmcblk0p1`.
    if n.starts_with("nvme") || n.starts_with("mmcblk") || n.starts_with("rbd") {
        let part = n.rsplit_once('p').is_some_and(|(head, tail)| {
            ends_digit(head) && !tail.is_empty() && tail.chars().all(|c| c.is_ascii_digit())
        });
        return if part {
            DeviceRole::Partition
        } else {
            DeviceRole::Disk
        };
    }
    // AIX: `hdisk3`, `hdiskpower0` (PowerPath), `vpath0` (SDD) are disks (LUNs).
    if n.starts_with("hdisk") || n.starts_with("vpath") {
        return DeviceRole::Disk;
    }
    // Linux SCSI/virtio/Xen/IDE: letters then an optional partition number.
    for p in ["sd", "vd", "xvd", "hd"] {
        if let Some(rest) = n.strip_prefix(p) {
            let letters: String = rest
                .chars()
                .take_while(|c| c.is_ascii_lowercase())
                .collect();
            let digits = &rest[letters.len()..];
            if !letters.is_empty()
                && !digits.is_empty()
                && digits.chars().all(|c| c.is_ascii_digit())
            {
                return DeviceRole::Partition;
            }
            if !letters.is_empty() && digits.is_empty() {
                return DeviceRole::Disk;
            }
            // Solaris `sd0` (instance number) is a disk, `sd0,a` a slice.
            if letters.is_empty() && !digits.is_empty() {
                return if digits.contains(',') {
                    DeviceRole::Partition
                } else {
                    DeviceRole::Disk
                };
            }
        }
    }
    if n.contains(',') {
        return DeviceRole::Partition;
    }
    // Solaris cXtYdZsN / cXdZsN slice, cXtYdZpN partition.
    if n.starts_with('c') && n.contains('d') {
        let after_d = n.rsplit_once('d').map(|(_, t)| t).unwrap_or("");
        if after_d.contains('s') || after_d.contains('p') {
            return DeviceRole::Partition;
        }
        return DeviceRole::Disk;
    }
    // `iostat -N`: `vg-lv` (LVM) names contain a dash; Linux disks never do.
    if n.contains('-') && !n.starts_with("hdisk") {
        return DeviceRole::Mapper;
    }
    // Solaris NFS mounts (`nfs1`) carry network IO, not disk IO; `sol:vold(pid1533)` is the
    // volume-management daemon's pseudo device.
    if let Some(rest) = n.strip_prefix("nfs") {
        if !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit()) {
            return DeviceRole::Virtual;
        }
    }
    if n.contains(':') {
        return DeviceRole::Virtual;
    }
    // HP-UX 11i v3 agile names (`disk3`, partitions `disk3_p2`).
    if let Some(rest) = n.strip_prefix("disk") {
        if let Some((d, p)) = rest.split_once("_p") {
            if all_digits(d) && all_digits(p) {
                return DeviceRole::Partition;
            }
        }
        if all_digits(rest) {
            return DeviceRole::Disk;
        }
    }
    // Solaris drivers of whole disks beside `sd`: `ssd` (SPARC Fibre Channel), `cmdk` (IDE),
    // `dad`, `blkdev` (NVMe and others under illumos blkdev); and Linux `dasd` (s390), `pmem`
    // (persistent memory), `skd`, `rssd`. (LDoms' `vdc0` reads as a Linux virtio partition:
    // `vd` comes first.)
    for p in ["ssd", "cmdk", "dad", "blkdev", "pmem", "skd", "rssd"] {
        if let Some(rest) = n.strip_prefix(p) {
            if all_digits(rest) {
                return DeviceRole::Disk;
            }
            if rest.contains(',') {
                return DeviceRole::Partition;
            }
        }
    }
    if let Some(rest) = n.strip_prefix("dasd") {
        let letters = rest.chars().take_while(|c| c.is_ascii_lowercase()).count();
        if letters > 0 {
            return if rest.len() == letters {
                DeviceRole::Disk
            } else if all_digits(&rest[letters..]) {
                DeviceRole::Partition
            } else {
                DeviceRole::Unknown
            };
        }
    }
    // illumos `iostat -x` prints each ZFS pool (`zones`, `rpool`) as a row of its own: a name
    // with no digit that no rule above recognised is taken for such an aggregate of the disks
    // listed with it, like an `iostat -g` group (every disk name of the formats read carries a
    // number, except Linux `sda`-style names, recognised above).
    if !n.is_empty() && !n.chars().any(|c| c.is_ascii_digit()) {
        return DeviceRole::Group;
    }
    // Anything else (`sar -j UUID` filesystem ids such as `A6B4E393B4E36471`, a driver not
    // listed here) is not guessed to be a disk: adding it could count its IO twice.
    DeviceRole::Unknown
}

fn all_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// Linux persistent names, as `sar -j ID|PATH` and `iostat -j ID|PATH` print them (the
/// `/dev/disk/by-id` and `/dev/disk/by-path` links of udev's `60-persistent-storage.rules`): a
/// bus or path prefix (`ata-`, `scsi-`, `wwn-`, `nvme-`, `usb-`, `virtio-`, `pci-`, …) names a
/// whole disk, with `-partN` a partition of it; `dm-name-` / `dm-uuid-` are device-mapper,
/// `md-name-` / `md-uuid-` software RAID; `lvm-pv-uuid-` (a physical volume: a disk or a
/// partition, the link does not say) is unknown.
fn persistent_name(n: &str) -> Option<DeviceRole> {
    if n.starts_with("dm-name-") || n.starts_with("dm-uuid-") {
        return Some(DeviceRole::Mapper);
    }
    if n.starts_with("md-name-") || n.starts_with("md-uuid-") {
        return Some(DeviceRole::SoftwareRaid);
    }
    if n.starts_with("lvm-pv-uuid-") {
        return Some(DeviceRole::Unknown);
    }
    // A filesystem UUID (`sar -j UUID`): 8-4-4-4-12 hex digits.
    let groups: Vec<&str> = n.split('-').collect();
    if groups.len() == 5
        && groups.iter().map(|g| g.len()).eq([8, 4, 4, 4, 12])
        && groups
            .iter()
            .all(|g| g.bytes().all(|b| b.is_ascii_hexdigit()))
    {
        return Some(DeviceRole::Unknown);
    }
    const BUSES: [&str; 13] = [
        "ata-",
        "scsi-",
        "wwn-",
        "nvme-",
        "usb-",
        "virtio-",
        "pci-",
        "ieee1394-",
        "mmc-",
        "memstick-",
        "xen-",
        "platform-",
        "acpi-",
    ];
    if !BUSES.iter().any(|b| n.starts_with(b)) {
        return None;
    }
    let part = n
        .rsplit_once("-part")
        .is_some_and(|(_, tail)| all_digits(tail));
    Some(if part {
        DeviceRole::Partition
    } else {
        DeviceRole::Disk
    })
}

/// Stacked devices and multipath paths (see [`DeviceRole::Stacked`], [`DeviceRole::Path`]), by
/// the kernel's names: `bcacheN` (drivers/md/bcache), `drbdN` (drivers/block/drbd), `zdN` (ZFS
/// zvols, partitions `zdNpM`), `emcpowerX` (PowerPath pseudo devices, partitions
/// `emcpowerXN`), `nvmeXcYnZ` (NVMe controller-path nodes, drivers/nvme/host/multipath.c).
fn stacked_or_path(n: &str) -> Option<DeviceRole> {
    for p in ["bcache", "drbd", "zd"] {
        if let Some(rest) = n.strip_prefix(p) {
            if all_digits(rest) {
                return Some(DeviceRole::Stacked);
            }
            if rest
                .split_once('p')
                .is_some_and(|(a, b)| all_digits(a) && all_digits(b))
            {
                return Some(DeviceRole::Partition);
            }
        }
    }
    if let Some(rest) = n.strip_prefix("emcpower") {
        let letters = rest.chars().take_while(|c| c.is_ascii_lowercase()).count();
        if letters > 0 {
            return Some(if rest.len() == letters {
                DeviceRole::Stacked
            } else {
                DeviceRole::Partition
            });
        }
    }
    // nvme<ctrl>c<path>n<ns>
    if let Some(rest) = n.strip_prefix("nvme") {
        if let Some((ctrl, tail)) = rest.split_once('c') {
            if let Some((path, ns)) = tail.split_once('n') {
                if all_digits(ctrl) && all_digits(path) && all_digits(ns) {
                    return Some(DeviceRole::Path);
                }
            }
        }
    }
    None
}

/// The whole disk a partition belongs to, by name, for a partition whose disk a log may not
/// list (`iostat -p sda1`): `sda1` → `sda`, `nvme0n1p2` → `nvme0n1`, `mmcblk0p1` → `mmcblk0`,
/// `cciss/c0d0p2` → `cciss/c0d0`, `sd0,a` → `sd0`, `c0t0d0s0` → `c0t0d0`, `disk3_p2` →
/// `disk3`, `ata-…-part1` → `ata-…`, `dev8-1` → `dev8-0`. `None` for a name that is not a
/// partition ([`classify`]) or whose disk cannot be named.
pub fn parent_disk(name: &str) -> Option<String> {
    if classify(name, false) != DeviceRole::Partition {
        return None;
    }
    let n = name.trim().trim_start_matches("/dev/");
    if let Some((head, tail)) = n.rsplit_once("-part") {
        if all_digits(tail) {
            return Some(head.to_string());
        }
    }
    if let Some(mm) = n.strip_prefix("dev") {
        if let Some((maj, min)) = mm.split_once('-') {
            if let (Ok(maj), Ok(min)) = (maj.parse::<u32>(), min.parse::<u32>()) {
                let per = if matches!(maj, 3 | 22) { 64 } else { 16 };
                return Some(format!("dev{maj}-{}", min - min % per));
            }
        }
    }
    if let Some((d, _)) = n.split_once(',') {
        return Some(d.to_string());
    }
    if let Some((d, p)) = n.rsplit_once("_p") {
        if all_digits(p) {
            return Some(d.to_string());
        }
    }
    // `…pN` after a digit (nvme0n1p2, mmcblk0p1, md0p1, cciss/c0d0p2, zd0p1, c0t0d0p0).
    if let Some((head, tail)) = n.rsplit_once('p') {
        if all_digits(tail) && ends_digit(head) {
            return Some(head.to_string());
        }
    }
    // Solaris slices `c0t0d0s0`.
    if let Some((head, tail)) = n.rsplit_once('s') {
        if all_digits(tail) && ends_digit(head) && head.contains('d') {
            return Some(head.to_string());
        }
    }
    // `sda1`, `xvdf2`, `emcpowera1`: the trailing digits.
    let head = n.trim_end_matches(|c: char| c.is_ascii_digit());
    (!head.is_empty() && head.len() < n.len()).then(|| head.to_string())
}
