#pragma once

#include <QString>
#include <QStringList>

/// Captures every log message (all rechargedesk.* categories enabled) while alive, for privacy checks; restores
/// the previous handler and filter rules when the test ends, even a failing one. One at a time.
class LogCapture
{
public:
    LogCapture();
    ~LogCapture();
    LogCapture(const LogCapture &) = delete;
    LogCapture &operator=(const LogCapture &) = delete;

    /// The captured lines ("<category> <message>"), joined by newlines.
    QString text() const;
};

/// Every file under @p dir (recursively) that contains @p text as ASCII/UTF-8 or UTF-16 (either byte order);
/// "(no files scanned)" when there was nothing to read, so an empty answer proves something.
QStringList filesContaining(const QString &dir, const QString &text);
