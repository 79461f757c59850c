#pragma once

#include <QByteArrayView>
#include <QtGlobal>

/// A "Vm...: 123 kB" line (e.g. "VmRSS", "VmHWM") of /proc/<pid>/status in KiB; pid 0 reads this process
/// (/proc/self). 0 when unavailable.
qint64 procStatusKiB(qint64 pid, QByteArrayView key);
