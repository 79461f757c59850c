#include "dayendreport.h"

#include "operatorcatalog.h"

#include <QJsonArray>
#include <QLocale>

namespace {

Paise money(const QJsonObject &object, const char *name)
{
    return Money::parse(object.value(QLatin1String(name)).toString()).value_or(0);
}

qint64 integer(const QJsonObject &object, const char *name)
{
    return object.value(QLatin1String(name)).toInteger();
}

DayEndReportData::Line lineFromJson(const QJsonObject &json)
{
    DayEndReportData::Line line;
    line.type = json.value(QStringLiteral("type")).toString();
    line.operatorCode = json.value(QStringLiteral("operator_code")).toString();
    line.success = integer(json, "success");
    line.pending = integer(json, "pending");
    line.failed = integer(json, "failed");
    line.billAmount = money(json, "bill_amount");
    line.discount = money(json, "discount");
    line.paid = money(json, "paid");
    return line;
}

QString escaped(const QString &text)
{
    return text.toHtmlEscaped();
}

} // namespace

DayEndReportData DayEndReportData::fromJson(const QJsonObject &data)
{
    DayEndReportData report;
    report.date = QDate::fromString(data.value(QStringLiteral("date")).toString(), Qt::ISODate);
    report.mode = data.value(QStringLiteral("mode")).toString();
    report.totals = lineFromJson(data.value(QStringLiteral("totals")).toObject());
    report.commission = money(data, "commission_earned");
    for (const QJsonValue &line : data.value(QStringLiteral("lines")).toArray())
        report.lines.append(lineFromJson(line.toObject()));
    for (const QJsonValue &value : data.value(QStringLiteral("clerks")).toArray()) {
        const QJsonObject clerk = value.toObject();
        report.clerks.append({clerk.value(QStringLiteral("clerk")).toString(), integer(clerk, "success"),
                              money(clerk, "bill_amount"), money(clerk, "discount")});
    }
    for (int hour = 0; hour < 24; ++hour)
        report.hours.append({hour, 0, 0});
    for (const QJsonValue &value : data.value(QStringLiteral("hours")).toArray()) {
        const QJsonObject hour = value.toObject();
        const int at = int(integer(hour, "hour"));
        if (at >= 0 && at < 24)
            report.hours[at] = {at, integer(hour, "success"), money(hour, "bill_amount")};
    }
    const QJsonObject wallet = data.value(QStringLiteral("wallet")).toObject();
    report.walletOpening = money(wallet, "opening");
    report.walletClosing = money(wallet, "closing");
    report.topups = money(wallet, "topups");
    report.debits = money(wallet, "debits");
    report.refunds = money(wallet, "refunds");
    const QJsonObject upstream = data.value(QStringLiteral("unknown_at_upstream")).toObject();
    report.unknownAtUpstream = integer(upstream, "count");
    report.unknownAtUpstreamPaid = money(upstream, "paid");
    return report;
}

QString DayEndReportData::typeName(const QString &type)
{
    if (type == QLatin1String("MOBILE"))
        return tr("Mobile");
    if (type == QLatin1String("DTH"))
        return tr("DTH");
    if (type == QLatin1String("VOUCHER"))
        return tr("Voucher");
    return type;
}

QString DayEndReportData::operatorName(const OperatorCatalog &catalog, const QString &code)
{
    const OperatorInfo *info = catalog.findOperator(code);
    return info ? info->name : code;
}

QString DayEndReportData::clerkName(const QString &clerk)
{
    return clerk.isEmpty() ? tr("Counter (API)") : clerk;
}

QString DayEndReportData::unknownAtUpstreamText() const
{
    if (unknownAtUpstream <= 0)
        return {};
    return tr("Of the pending sales, %n (%1 paid) are still unknown at the upstream: no definite answer yet, so "
              "neither sold nor refunded. Recheck them in History → Unknown at upstream.",
              nullptr, int(unknownAtUpstream))
        .arg(Money::format(unknownAtUpstreamPaid));
}

QString DayEndReportData::toHtml(const OperatorCatalog &catalog, const QString &shopName,
                                 const QString &shopAddress) const
{
    const QLocale locale;
    const auto num = [&locale](qint64 n) { return locale.toString(n); };
    const QString cell = QStringLiteral("<td style='padding:3px 8px'>%1</td>");
    const QString right = QStringLiteral("<td align='right' style='padding:3px 8px'>%1</td>");
    const QString head = QStringLiteral("<th align='%2' style='padding:3px 8px; background:#eaecf0'>%1</th>");

    QString html = QStringLiteral("<html><body style='font-family: DejaVu Sans; font-size: 10pt; color: #101828'>");
    html += QStringLiteral("<h2 style='margin:0'>%1</h2>").arg(escaped(shopName));
    if (!shopAddress.isEmpty())
        html += QStringLiteral("<div>%1</div>").arg(escaped(shopAddress));
    html += QStringLiteral("<h3>%1</h3>")
                .arg(escaped(tr("Day-end (Z) report for %1 (IST)%2")
                                 .arg(locale.toString(date, QStringLiteral("dddd d MMMM yyyy")),
                                      mode == QLatin1String("test") ? tr(" — TEST MODE") : QString())));

    html += QStringLiteral("<table cellspacing='0' border='1' style='border-collapse:collapse; border-color:#d0d5dd'>");
    const auto pair = [&](const QString &label, const QString &value) {
        html += QStringLiteral("<tr>") + cell.arg(escaped(label)) + right.arg(escaped(value)) + QStringLiteral("</tr>");
    };
    pair(tr("Successful sales"), num(totals.success));
    pair(tr("Pending sales"), num(totals.pending));
    if (unknownAtUpstream > 0) {
        pair(tr("  of which unknown at the upstream"),
             tr("%1 (%2 paid)").arg(num(unknownAtUpstream), Money::format(unknownAtUpstreamPaid)));
    }
    pair(tr("Failed sales"), num(totals.failed));
    pair(tr("Bill amount (successful)"), Money::formatIndian(totals.billAmount));
    pair(tr("Commission earned"), Money::formatIndian(commission));
    pair(tr("Paid from wallet (successful)"), Money::formatIndian(totals.paid));
    html += QStringLiteral("</table>");

    html += QStringLiteral("<h4>%1</h4>").arg(escaped(tr("Wallet")));
    html += QStringLiteral("<table cellspacing='0' border='1' style='border-collapse:collapse; border-color:#d0d5dd'>");
    pair(tr("Opening balance"), Money::formatIndian(walletOpening));
    pair(tr("Top-ups"), Money::formatIndian(topups));
    pair(tr("Debits for sales"), Money::formatIndian(debits));
    pair(tr("Refunds of failed sales"), Money::formatIndian(refunds));
    pair(tr("Closing balance"), Money::formatIndian(walletClosing));
    html += QStringLiteral("</table>");

    html += QStringLiteral("<h4>%1</h4>").arg(escaped(tr("By type and operator")));
    html += QStringLiteral("<table cellspacing='0' border='1' width='100%' "
                           "style='border-collapse:collapse; border-color:#d0d5dd'><tr>");
    for (const QString &title : {tr("Type"), tr("Operator")})
        html += head.arg(escaped(title), QStringLiteral("left"));
    for (const QString &title : {tr("Success"), tr("Pending"), tr("Failed"), tr("Bill"), tr("Commission"), tr("Paid")})
        html += head.arg(escaped(title), QStringLiteral("right"));
    html += QStringLiteral("</tr>");
    const auto lineRow = [&](const Line &line, const QString &type, const QString &name, bool bold) {
        QString row = QStringLiteral("<tr%1>").arg(bold ? QStringLiteral(" style='font-weight:bold'") : QString());
        row += cell.arg(escaped(type)) + cell.arg(escaped(name));
        row += right.arg(num(line.success)) + right.arg(num(line.pending)) + right.arg(num(line.failed));
        row += right.arg(Money::formatIndian(line.billAmount)) + right.arg(Money::formatIndian(line.discount)) +
               right.arg(Money::formatIndian(line.paid));
        html += row + QStringLiteral("</tr>");
    };
    for (const Line &line : lines)
        lineRow(line, typeName(line.type), operatorName(catalog, line.operatorCode), false);
    if (lines.isEmpty()) {
        html += QStringLiteral("<tr><td colspan='8' style='padding:3px 8px'>%1</td></tr>")
                    .arg(escaped(tr("No sales on this day.")));
    }
    lineRow(totals, tr("Total"), QString(), true);
    html += QStringLiteral("</table>");

    html += QStringLiteral("<h4>%1</h4>").arg(escaped(tr("By clerk (successful sales)")));
    html +=
        QStringLiteral("<table cellspacing='0' border='1' style='border-collapse:collapse; border-color:#d0d5dd'><tr>");
    html += head.arg(escaped(tr("Clerk")), QStringLiteral("left"));
    for (const QString &title : {tr("Sales"), tr("Bill"), tr("Commission")})
        html += head.arg(escaped(title), QStringLiteral("right"));
    html += QStringLiteral("</tr>");
    for (const Clerk &clerk : clerks) {
        html += QStringLiteral("<tr>") + cell.arg(escaped(clerkName(clerk.clerk))) + right.arg(num(clerk.success)) +
                right.arg(Money::formatIndian(clerk.billAmount)) + right.arg(Money::formatIndian(clerk.discount)) +
                QStringLiteral("</tr>");
    }
    if (clerks.isEmpty())
        html += QStringLiteral("<tr><td colspan='4' style='padding:3px 8px'>%1</td></tr>").arg(escaped(tr("None.")));
    html += QStringLiteral("</table>");
    html += QStringLiteral("<h4>%1</h4></body></html>").arg(escaped(tr("Sales by hour (IST)")));
    return html;
}
