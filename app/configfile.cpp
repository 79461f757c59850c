#include "configfile.h"

#include <QFile>
#include <QRegularExpression>

namespace {

/// A switch's value: true or false; nullopt when it is neither.
std::optional<bool> switchValue(const QString &text)
{
    const QString value = text.toLower();
    if (value == QLatin1String("true") || value == QLatin1String("yes") || value == QLatin1String("on") ||
        value == QLatin1String("1"))
        return true;
    if (value == QLatin1String("false") || value == QLatin1String("no") || value == QLatin1String("off") ||
        value == QLatin1String("0"))
        return false;
    return std::nullopt;
}

} // namespace

std::optional<ConfigFile> ConfigFile::read(const QString &path, const QList<QCommandLineOption> &options,
                                           const QStringList &excluded, const QStringList &repeatable, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        *error = QStringLiteral("cannot read the configuration %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    QHash<QString, bool> known; // long name -> takes a value
    QStringList names;
    for (const QCommandLineOption &option : options) {
        const QString name = option.names().constLast();
        if (name.size() > 1 && !excluded.contains(name)) {
            known.insert(name, !option.valueName().isEmpty());
            names.append(name);
        }
    }
    names.sort();
    static const QRegularExpression line(QStringLiteral("^([A-Za-z0-9][A-Za-z0-9-]*)\\s*=\\s*(.*?)\\s*$"));
    ConfigFile config;
    config.m_path = path;
    QHash<QString, int> seenAt;
    int number = 0;
    while (!file.atEnd()) {
        ++number;
        const QString text = QString::fromUtf8(file.readLine()).trimmed();
        if (text.isEmpty() || text.startsWith(QLatin1Char('#')))
            continue;
        const auto fail = [&](const QString &reason) {
            *error = QStringLiteral("%1:%2: %3").arg(path).arg(number).arg(reason);
            return std::nullopt;
        };
        const QRegularExpressionMatch match = line.match(text);
        if (!match.hasMatch())
            return fail(QStringLiteral("expected \"key = value\", found \"%1\"").arg(text));
        const QString key = match.captured(1);
        QString value = match.captured(2);
        if (value.size() >= 2 && value.startsWith(QLatin1Char('"')) && value.endsWith(QLatin1Char('"')))
            value = value.mid(1, value.size() - 2);
        if (!known.contains(key))
            return fail(
                QStringLiteral("unknown key \"%1\"; the keys are: %2").arg(key, names.join(QStringLiteral(", "))));
        if (seenAt.contains(key) && !repeatable.contains(key))
            return fail(QStringLiteral("\"%1\" is set twice (first on line %2)").arg(key).arg(seenAt.value(key)));
        seenAt.insert(key, number);
        const bool isSwitch = !known.value(key);
        if (isSwitch && !switchValue(value))
            return fail(QStringLiteral("%1 = %2: a switch takes true or false").arg(key, value));
        config.m_settings.append({key, value, number, isSwitch});
    }
    return config;
}

QStringList ConfigFile::merged(const QStringList &arguments, const QStringList &setOnCommandLine) const
{
    QStringList fromFile;
    for (const Setting &setting : m_settings) {
        if (setOnCommandLine.contains(setting.key))
            continue;
        if (!setting.isSwitch)
            fromFile.append(QStringLiteral("--%1=%2").arg(setting.key, setting.value));
        else if (*switchValue(setting.value))
            fromFile.append(QStringLiteral("--") + setting.key);
    }
    QStringList result = arguments.mid(0, 1);
    result += fromFile;
    result += arguments.mid(1);
    return result;
}

QString ConfigFile::value(const QString &key) const
{
    for (auto it = m_settings.crbegin(); it != m_settings.crend(); ++it) {
        if (it->key == key)
            return it->value;
    }
    return QString();
}

QString ConfigFile::locate(const QString &message, const QStringList &setOnCommandLine) const
{
    static const QRegularExpression flag(QStringLiteral("^--([A-Za-z0-9-]+)"));
    const QString key = flag.match(message).captured(1);
    if (key.isEmpty() || setOnCommandLine.contains(key))
        return message;
    for (auto it = m_settings.crbegin(); it != m_settings.crend(); ++it) {
        if (it->key == key)
            return QStringLiteral("%1:%2: %3").arg(m_path).arg(it->line).arg(message);
    }
    return message;
}
