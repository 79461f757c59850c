#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>

class QProcess;
class QThread;
class QTimer;

/// Opens the cash drawer wired to the receipt printer's drawer port (the RJ11/RJ12 "DK" socket) by sending the
/// printer the ESC/POS "generate pulse" command, ESC p m t1 t2 = 1B 70 00 19 FA (Epson ESC/POS: pin 2, on 25 × 2 ms,
/// off 250 × 2 ms), issue 28. The target is what Settings names for this terminal:
/// - "" — off: open() does nothing;
/// - an absolute path — a printer device such as /dev/usb/lp0 (or a plain file in tests), written directly;
/// - anything else — a CUPS queue, sent raw with `lp -d QUEUE -o raw` (package cups-client).
/// open() never blocks the GUI: the write runs on a thread of its own and `lp` as a process, and the outcome comes
/// later as opened() or failed(), never inside the call.
class CashDrawer final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CashDrawer)

public:
    /// How long a device write or `lp` may take before failed() says so, in milliseconds.
    static constexpr int kTimeoutMs = 10000;

    explicit CashDrawer(const QString &target, QObject *parent = nullptr);
    ~CashDrawer() override;

    /// The 5 bytes of the pulse command: 1B 70 00 19 FA.
    static QByteArray pulseCommand();
    /// What is wrong with `target` as a setting, for a person ("" when it is usable or empty = off): an absolute
    /// path, or a CUPS queue name (1-127 printable ASCII characters, no blank, '/', '\\', '#', quote, not starting
    /// with '-'). Whether the device exists is only known when open() writes to it.
    static QString checkTarget(const QString &target);

    /// True when a target is set.
    bool isEnabled() const { return !m_target.isEmpty(); }
    const QString &target() const { return m_target; }

    /// Sends the pulse to the target and returns at once; opened() or failed() follows. Returns false, and
    /// signals nothing, when the drawer is off. While a pulse is still on its way a second one is refused with
    /// failed().
    bool open();

signals:
    /// The printer took the pulse command (the drawer itself reports nothing back).
    void opened();
    /// The pulse could not be sent; `message` says why, for the clerk.
    void failed(const QString &message);

private:
    void writeToDevice();
    void sendToQueue();
    void finish(const QString &error);

    QString m_target;
    QThread *m_writer = nullptr; ///< the device write on its way (deletes itself when done)
    QProcess *m_lp = nullptr;    ///< `lp` on its way
    QTimer *m_timeout;
    bool m_waiting = false; ///< a pulse was sent and its outcome is not reported yet
};
