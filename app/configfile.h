#pragma once

#include <QCommandLineOption>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

/// A `serve --config FILE` file (issue 15), e.g. /etc/rechargedesk/server.conf: one `key = value` per line,
/// blank lines and lines starting with `#` ignored, a value optionally in double quotes. A key is the long
/// name of a command-line option without `--` (`listen = 127.0.0.1:8080`, `data-dir = /var/lib/rechargedesk`);
/// a switch such as `tls` takes true/false (yes/no, on/off, 1/0). The keys come from the command's own
/// QCommandLineOption list, so every option has one. Command-line flags override the file.
class ConfigFile
{
public:
    /// Reads `path`, accepting the long names of `options` as keys (except `excluded`, e.g. "config" and
    /// "help"); a key may appear more than once only when it is in `repeatable`. nullopt with *error as
    /// "FILE:LINE: reason" for an unreadable file, a line that is not `key = value`, an unknown or repeated
    /// key, or a switch whose value is not true or false.
    static std::optional<ConfigFile> read(const QString &path, const QList<QCommandLineOption> &options,
                                          const QStringList &excluded, const QStringList &repeatable, QString *error);

    /// `arguments` (program name first, as QCommandLineParser takes them) with the file's settings inserted
    /// after the program name as `--key=value` (a true switch as `--key`), for every key not in `setOnCommandLine`.
    QStringList merged(const QStringList &arguments, const QStringList &setOnCommandLine) const;
    /// The file's last value for `key`; empty when absent.
    QString value(const QString &key) const;
    /// `message` prefixed with "FILE:LINE: " when it starts with "--key" for a key that came from this file
    /// (and was not overridden on the command line), so an invalid value names the line to mend.
    QString locate(const QString &message, const QStringList &setOnCommandLine) const;

private:
    struct Setting
    {
        QString key;
        QString value;
        int line = 0;
        bool isSwitch = false;
    };
    QString m_path;
    QList<Setting> m_settings;
};
