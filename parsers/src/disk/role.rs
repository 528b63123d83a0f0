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
    // illumos `iostat -x` prints each ZFS pool (`zones`, `rpool`) as a row of its own: a name
    // with no digit that no rule above recognised is taken for such an aggregate of the disks
    // listed with it, like an `iostat -g` group (every disk name of the formats read carries a
    // number, except Linux `sda`-style names, recognised above).
    if !n.is_empty() && !n.chars().any(|c| c.is_ascii_digit()) {
        return DeviceRole::Group;
    }
    DeviceRole::Disk
}
