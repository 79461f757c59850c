#include "receipts/receiptdata.h"
#include "receipts/receiptrenderer.h"
#include "recordjson.h"

#include <QFile>
#include <QFontDatabase>
#include <QFontMetricsF>
#include <QJsonObject>
#include <QPainter>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {

ReceiptData voucherReceipt()
{
    const QJsonObject record{{QStringLiteral("entity"), QStringLiteral("appstore_voucher")},
                             {QStringLiteral("transaction_id"), 40231},
                             {QStringLiteral("operator"), QStringLiteral("Google Play")},
                             {QStringLiteral("type"), QStringLiteral("VOUCHER")},
                             {QStringLiteral("bill_amount"), QStringLiteral("₹500.00")},
                             {QStringLiteral("discount"), QStringLiteral("₹5.00")},
                             {QStringLiteral("paid"), QStringLiteral("₹495.00")},
                             {QStringLiteral("customer_email"), QStringLiteral("asha.verma.longname@example.in")},
                             {QStringLiteral("transaction_status"), QStringLiteral("SUCCESS")},
                             {QStringLiteral("redeem_code"), QStringLiteral("K7QM-2XPL-9RTA-WD4C")},
                             {QStringLiteral("reference_id"), QStringLiteral("rd-0f3c9a6b2d4e4f8aa1b2c3d4e5f60718")},
                             {QStringLiteral("datetime"), QStringLiteral("2024-07-14 18:42:05")}};
    return ReceiptData::fromRecord(decodedRecord(record), QStringLiteral("Sharma Mobile Point & Xerox"),
                                   QStringLiteral("12 Station Road, near Bus Stand, Jaipur 302006"));
}

/// A ₹299 Jio recharge to 9876543210 as the server records it (Jio 1.5 %: discount ₹4.49).
QJsonObject jioRecord(qint64 transactionId, const QString &status, const QString &reference)
{
    return {{QStringLiteral("entity"), QStringLiteral("mobile_recharge")},
            {QStringLiteral("transaction_id"), transactionId},
            {QStringLiteral("operator"), QStringLiteral("Jio")},
            {QStringLiteral("type"), QStringLiteral("MOBILE")},
            {QStringLiteral("number"), QStringLiteral("9876543210")},
            {QStringLiteral("bill_amount"), QStringLiteral("₹299.00")},
            {QStringLiteral("discount"), QStringLiteral("₹4.49")},
            {QStringLiteral("paid"), QStringLiteral("₹294.51")},
            {QStringLiteral("transaction_status"), status},
            {QStringLiteral("reference_id"), reference},
            {QStringLiteral("datetime"), QStringLiteral("2024-07-14 18:45:00")}};
}

ReceiptData mobileReceipt()
{
    return ReceiptData::fromRecord(
        decodedRecord(jioRecord(40232, QStringLiteral("PENDING"), QStringLiteral("BILL-77"))),
        QStringLiteral("Sharma Mobile Point"), QStringLiteral("Jaipur"));
}

/// A ₹299 Jio plan sold from the Plans screen in the sandbox; `status` as the server said.
ReceiptData sandboxPlanSale(const QString &status)
{
    ReceiptData data = ReceiptData::fromRecord(
        decodedRecord(jioRecord(40233, status, QStringLiteral("rd-a1b2c3d4e5f60718293a4b5c6d7ef9e0"))),
        QStringLiteral("Sharma Mobile Point"), QStringLiteral("Jaipur"));
    data.circle = QStringLiteral("Karnataka (KA)");
    data.plan = SoldPlan{29900, QStringLiteral("28 days"),
                         QStringLiteral("Unlimited calls, 1.5 GB/day, 100 SMS/day, JioTV + JioCinema + JioCloud")};
    data.sandbox = true;
    return data;
}

/// A `width` column (millimetres) with one row per roll width.
void paperWidthRows()
{
    QTest::addColumn<int>("width");
    QTest::newRow("58 mm") << 58;
    QTest::newRow("80 mm") << 80;
}

ReceiptWidth paperOf(int widthMm)
{
    return widthMm == 58 ? ReceiptWidth::Mm58 : ReceiptWidth::Mm80;
}

QStringList texts(const QList<ReceiptBlock> &blocks)
{
    QStringList out;
    for (const ReceiptBlock &block : blocks)
        out << block.text + QLatin1Char('|') + block.value;
    return out;
}

/// The page size a PDF declares, in points.
QSizeF mediaBox(const QByteArray &pdf)
{
    const QRegularExpressionMatch m =
        QRegularExpression(QStringLiteral("/MediaBox \\[0 0 ([0-9.]+) ([0-9.]+)\\]")).match(QString::fromLatin1(pdf));
    return m.hasMatch() ? QSizeF(m.captured(1).toDouble(), m.captured(2).toDouble()) : QSizeF();
}

} // namespace

class TestUiReceipts final : public QObject
{
    Q_OBJECT

private slots:
    void fromRecord()
    {
        const ReceiptData data = mobileReceipt();
        QCOMPARE(data.transactionId, QStringLiteral("40232"));
        QCOMPARE(data.typeTitle(), QStringLiteral("Mobile recharge"));
        QCOMPARE(data.number, QStringLiteral("9876543210"));
        QCOMPARE(data.paid, QStringLiteral("₹294.51"));
        QCOMPARE(data.status, QStringLiteral("PENDING"));
        QCOMPARE(data.referenceId, QStringLiteral("BILL-77"));
    }

    void blocksSayEverything()
    {
        const QStringList lines = texts(ReceiptRenderer::blocks(voucherReceipt(), false));
        const QString all = lines.join(QLatin1Char('\n'));
        for (const char *expected :
             {"Sharma Mobile Point & Xerox", "12 Station Road", "2024-07-14 18:42:05", "40231", "Gift voucher",
              "Google Play", "K7QM-2XPL-9RTA-WD4C", "Paid|₹500.00", "Status|Successful",
              "rd-0f3c9a6b2d4e4f8aa1b2c3d4e5f60718", "asha.verma.longname@example.in", "Thank you"})
            QVERIFY2(all.contains(QString::fromUtf8(expected)), expected);
        // The customer's copy: neither the shop's commission nor its wallet debit.
        QVERIFY2(!all.contains(QStringLiteral("₹5.00")) && !all.contains(QStringLiteral("₹495.00")), qPrintable(all));
        QVERIFY(!all.contains(QLatin1String("DUPLICATE")));
        QVERIFY(!all.contains(QLatin1String("TEST")));
    }

    void moneyReadsTheIndianWay()
    {
        TransactionRecord record;
        record.transactionId = 1;
        record.type = TransactionType::Dth;
        record.billAmount = 1200000;
        record.discount = 42000;
        record.paid = 1158000;
        record.status = TransactionStatus::Success;
        const ReceiptData data = ReceiptData::fromRecord(record, QStringLiteral("Shop"), QString());
        QCOMPARE(data.billAmount, QStringLiteral("₹12,000.00"));
        QCOMPARE(data.paid, QStringLiteral("₹11,580.00"));
        QVERIFY(texts(ReceiptRenderer::blocks(data, false)).contains(QStringLiteral("Paid|₹12,000.00")));
    }

    void customersSandboxReceiptFromAPlan()
    {
        const QList<ReceiptBlock> blocks = ReceiptRenderer::blocks(sandboxPlanSale(QStringLiteral("SUCCESS")), false);
        const QStringList lines = texts(blocks);
        const QString all = lines.join(QLatin1Char('\n'));
        // The stamp, black on the paper, first and last: a photo of either end shows it.
        const QString stamp = QStringLiteral("TEST — NOT A REAL RECHARGE");
        QCOMPARE(blocks.first().kind, ReceiptBlock::Kind::Banner);
        QCOMPARE(blocks.first().text, stamp);
        QCOMPARE(blocks.last().kind, ReceiptBlock::Kind::Banner);
        QCOMPARE(blocks.last().text, stamp);
        for (const QString &expected :
             {QStringLiteral("Operator|Jio"), QStringLiteral("Mobile no.|9876543210"),
              QStringLiteral("Circle|Karnataka (KA)"), QStringLiteral("Transaction|40233"),
              QStringLiteral("Reference|rd-a1b2c3d4e5f60718293a4b5c6d7ef9e0"), QStringLiteral("Plan|₹299.00"),
              QStringLiteral("Validity|28 days"),
              QStringLiteral("Unlimited calls, 1.5 GB/day, 100 SMS/day, JioTV + JioCinema + JioCloud|"),
              QStringLiteral("Paid|₹299.00"), QStringLiteral("Status|Successful")})
            QVERIFY2(lines.contains(expected), qPrintable(expected + QStringLiteral(" not in\n") + all));
        // What the customer paid is the bill; the commission and the wallet debit are not theirs.
        QVERIFY2(!all.contains(QStringLiteral("₹4.49")), qPrintable(all));
        QVERIFY2(!all.contains(QStringLiteral("₹294.51")), qPrintable(all));
        QVERIFY(!all.contains(QStringLiteral("commission"), Qt::CaseInsensitive));
        QVERIFY(!all.contains(QStringLiteral("Shop copy"), Qt::CaseInsensitive));
    }

    void shopCopyAddsCommissionAndWalletDebit()
    {
        ReceiptData data = sandboxPlanSale(QStringLiteral("SUCCESS"));
        data.shopCopy = true;
        const QStringList lines = texts(ReceiptRenderer::blocks(data, false));
        for (const QString &expected :
             {QStringLiteral("Shop copy|"), QStringLiteral("Paid|₹299.00"), QStringLiteral("Your commission|₹4.49"),
              QStringLiteral("Wallet debit|₹294.51")})
            QVERIFY2(lines.contains(expected), qPrintable(lines.join(QLatin1Char('\n'))));
    }

    void failedSaleNothingToPay_data()
    {
        QTest::addColumn<bool>("shopCopy");
        QTest::newRow("customer") << false;
        QTest::newRow("shop copy") << true;
    }
    void failedSaleNothingToPay()
    {
        QFETCH(bool, shopCopy);
        ReceiptData data = sandboxPlanSale(QStringLiteral("FAILED"));
        data.shopCopy = shopCopy;
        const QList<ReceiptBlock> blocks = ReceiptRenderer::blocks(data, false);
        const QStringList lines = texts(blocks);
        QVERIFY2(lines.contains(QStringLiteral("Not recharged — nothing to pay|")), qPrintable(lines.join(u'\n')));
        QVERIFY(lines.contains(QStringLiteral("Status|Failed")));
        for (const ReceiptBlock &block : blocks) {
            QVERIFY2(block.text != QLatin1String("Paid"), qPrintable(lines.join(u'\n')));
            QVERIFY2(block.kind != ReceiptBlock::Kind::StrongRow || !block.value.startsWith(u'₹'),
                     qPrintable(block.text + u'|' + block.value));
        }
        QVERIFY(!lines.join(u'\n').contains(QStringLiteral("commission"), Qt::CaseInsensitive));
    }

    void wrapAtSeparators_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("columns");
        QTest::addColumn<QStringList>("lines");
        QTest::newRow("fits") << QStringLiteral("BILL-77") << 10 << QStringList{QStringLiteral("BILL-77")};
        QTest::newRow("hyphens") << QStringLiteral("BILL-2024-07-14-COUNTER-0001") << 12
                                 << QStringList{QStringLiteral("BILL-2024-"), QStringLiteral("07-14-"),
                                                QStringLiteral("COUNTER-0001")};
        QTest::newRow("e-mail") << QStringLiteral("asha.verma.longname@example.in") << 20
                                << QStringList{QStringLiteral("asha.verma.longname@"), QStringLiteral("example.in")};
        QTest::newRow("underscores and slashes")
            << QStringLiteral("shop_42/counter_1/asha") << 10
            << QStringList{QStringLiteral("shop_42/"), QStringLiteral("counter_1/"), QStringLiteral("asha")};
        QTest::newRow("long run: even parts")
            << QStringLiteral("rd-a1b2c3d4e5f60718293a4b5c6d7ef9e0") << 20
            << QStringList{QStringLiteral("rd-a1b2c3d4e5f6071"), QStringLiteral("8293a4b5c6d7ef9e0")};
        QTest::newRow("spaces dropped at the break")
            << QStringLiteral("Andhra Pradesh & Telangana (AP)") << 16
            << QStringList{QStringLiteral("Andhra Pradesh &"), QStringLiteral("Telangana (AP)")};
    }
    void wrapAtSeparators()
    {
        QFETCH(QString, text);
        QFETCH(int, columns);
        QFETCH(QStringList, lines);
        // A monospace font: `columns` characters are exactly one line.
        const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
        const QFontMetricsF metrics(mono);
        const qreal width = metrics.horizontalAdvance(QString(columns, u'M'));
        QCOMPARE(ReceiptRenderer::wrapAtSeparators(text, metrics, width), lines);
    }

    void longValuesFitThePaper_data() { paperWidthRows(); }
    void longValuesFitThePaper()
    {
        QFETCH(int, width);
        const ReceiptWidth paper = paperOf(width);
        ReceiptData data = sandboxPlanSale(QStringLiteral("SUCCESS"));
        data.referenceId = QStringLiteral("BILL-2024-07-14-COUNTER-ONE-ASHA-VERMA-000123");
        data.customerEmail = QStringLiteral("asha.verma.a.very.long.mailbox.name@example-mail.co.in");
        data.circle = QStringLiteral("Andhra Pradesh & Telangana (AP)");
        const qreal printable = ReceiptRenderer::printableWidthDots(paper);
        QCOMPARE(printable, qreal(width - 8) * ReceiptRenderer::kDotsPerMm);
        int wrapped = 0;
        for (const ReceiptBlock &block : ReceiptRenderer::blocks(data, false)) {
            if (block.kind != ReceiptBlock::Kind::Row && block.kind != ReceiptBlock::Kind::StrongRow)
                continue;
            const QStringList lines = ReceiptRenderer::valueLines(block, paper);
            const QFontMetricsF metrics(ReceiptRenderer::valueFont(block, paper));
            for (const QString &line : lines)
                QVERIFY2(metrics.horizontalAdvance(line) <= printable,
                         qPrintable(QStringLiteral("%1 is %2 dots wide, the paper %3")
                                        .arg(line)
                                        .arg(metrics.horizontalAdvance(line))
                                        .arg(printable)));
            // Nothing is cut off: the lines are the whole value.
            QCOMPARE(lines.join(QString()).remove(u' '), QString(block.value).remove(u' '));
            if (lines.size() > 1) {
                ++wrapped;
                // Broken after a separator or at a space, never inside a word.
                for (qsizetype i = 0; i + 1 < lines.size(); ++i) {
                    const QString &line = lines.at(i);
                    QVERIFY2(QStringLiteral("-_/@.").contains(line.back()) || block.value.contains(line + u' '),
                             qPrintable(lines.join(u'|')));
                }
            }
        }
        QVERIFY(wrapped >= 2); // the e-mail and the reference at least
        // And on paper: no ink in the side margins.
        const QImage image = ReceiptRenderer().toImage(data, paper, false);
        for (int y = 0; y < image.height(); ++y) {
            for (int x : {0, 1, 2, image.width() - 3, image.width() - 2, image.width() - 1})
                QVERIFY(qGray(image.pixel(x, y)) > 200);
        }
        image.save(QStringLiteral("/tmp/uireceipts_long_%1.png").arg(width));
    }

    void duplicateIsMarked()
    {
        const QList<ReceiptBlock> blocks = ReceiptRenderer::blocks(mobileReceipt(), true);
        QCOMPARE(blocks.first().kind, ReceiptBlock::Kind::Banner);
        QCOMPARE(blocks.first().text, QStringLiteral("DUPLICATE"));
        QCOMPARE(blocks.last().kind, ReceiptBlock::Kind::Banner);
        // Two banners make the duplicate longer on paper too.
        ReceiptRenderer renderer;
        QVERIFY(renderer.paperSizeMm(mobileReceipt(), ReceiptWidth::Mm58, true).height() >
                renderer.paperSizeMm(mobileReceipt(), ReceiptWidth::Mm58, false).height());
    }

    void maskAadhaar_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("masked");
        QTest::newRow("plain 12 digits") << QStringLiteral("234567890124") << QStringLiteral("XXXX XXXX 0124");
        QTest::newRow("grouped") << QStringLiteral("2345 6789 0124") << QStringLiteral("XXXX XXXX 0124");
        QTest::newRow("already masked") << QStringLiteral("XXXX XXXX 0124") << QStringLiteral("XXXX XXXX 0124");
        QTest::newRow("in a sentence") << QStringLiteral("Aadhaar 234567890124 verified")
                                       << QStringLiteral("Aadhaar XXXX XXXX 0124 verified");
        QTest::newRow("phone untouched") << QStringLiteral("9876543210") << QStringLiteral("9876543210");
    }
    void maskAadhaar()
    {
        QFETCH(QString, text);
        QFETCH(QString, masked);
        QCOMPARE(ReceiptRenderer::maskAadhaar(text), masked);
    }

    void aadhaarNeverPrintedUnmasked()
    {
        ReceiptData data = mobileReceipt();
        data.verifiedCustomer = QStringLiteral("2345 6789 0124");
        const QString all = texts(ReceiptRenderer::blocks(data, false)).join(QLatin1Char('\n'));
        QVERIFY(all.contains(QLatin1String("XXXX XXXX 0124")));
        QVERIFY(!all.contains(QLatin1String("2345")));
    }

    void pdf_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<bool>("duplicate");
        QTest::newRow("58 mm") << 58 << false;
        QTest::newRow("80 mm") << 80 << false;
        QTest::newRow("58 mm duplicate") << 58 << true;
        QTest::newRow("80 mm duplicate") << 80 << true;
    }
    void pdf()
    {
        QFETCH(int, width);
        QFETCH(bool, duplicate);
        const ReceiptWidth paper = paperOf(width);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("receipt.pdf"));
        ReceiptRenderer renderer;
        QVERIFY(renderer.writePdf(path, voucherReceipt(), paper, duplicate));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray pdf = file.readAll();
        QVERIFY(pdf.startsWith("%PDF"));
        QVERIFY(pdf.size() > 1000);
        // The page is the roll's width and as tall as the receipt.
        const QSizeF points = mediaBox(pdf);
        const QSizeF mm = renderer.paperSizeMm(voucherReceipt(), paper, duplicate);
        QVERIFY2(qAbs(points.width() - width / 25.4 * 72) < 1, qPrintable(QString::number(points.width())));
        QVERIFY2(qAbs(points.height() - mm.height() / 25.4 * 72) < 1, qPrintable(QString::number(points.height())));
        QVERIFY(mm.height() > 80 && mm.height() < 400);
    }

    void writePdfReportsFailure()
    {
        QString error;
        QVERIFY(!ReceiptRenderer().writePdf(QStringLiteral("/nonexistent-dir/receipt.pdf"), voucherReceipt(),
                                            ReceiptWidth::Mm80, false, &error));
        QVERIFY(!error.isEmpty());
    }

    void image_data() { paperWidthRows(); }
    void image()
    {
        QFETCH(int, width);
        const ReceiptWidth paper = paperOf(width);
        ReceiptRenderer renderer;
        for (const bool duplicate : {false, true}) {
            const QImage image = renderer.toImage(voucherReceipt(), paper, duplicate);
            QCOMPARE(image.width(), width * ReceiptRenderer::kDotsPerMm);
            // Ink on the paper, and none in the side margins (nothing runs off the roll).
            int inked = 0;
            int inMargin = 0;
            for (int y = 0; y < image.height(); ++y) {
                for (int x = 0; x < image.width(); ++x) {
                    if (qGray(image.pixel(x, y)) < 128) {
                        ++inked;
                        if (x < 2 * ReceiptRenderer::kDotsPerMm || x >= image.width() - 2 * ReceiptRenderer::kDotsPerMm)
                            ++inMargin;
                    }
                }
            }
            QVERIFY(inked > 1000);
            QCOMPARE(inMargin, 0);
            image.save(QStringLiteral("/tmp/uisales_receipt_%1%2.png")
                           .arg(width)
                           .arg(duplicate ? QStringLiteral("_duplicate") : QString()));
            const QImage pending = renderer.toImage(mobileReceipt(), paper, duplicate);
            pending.save(QStringLiteral("/tmp/uisales_receipt_mobile_%1%2.png")
                             .arg(width)
                             .arg(duplicate ? QStringLiteral("_duplicate") : QString()));
        }
        // The duplicate's top is the black banner: a solid black row across the paper.
        const auto blackInTopRow = [](const QImage &receipt) {
            const int y = 4 * ReceiptRenderer::kDotsPerMm + 3;
            int black = 0;
            for (int x = 5 * ReceiptRenderer::kDotsPerMm; x < receipt.width() - 5 * ReceiptRenderer::kDotsPerMm; ++x)
                black += qGray(receipt.pixel(x, y)) < 64 ? 1 : 0;
            return black;
        };
        const QImage duplicate = renderer.toImage(voucherReceipt(), paper, true);
        const int row = duplicate.width() - 10 * ReceiptRenderer::kDotsPerMm;
        QCOMPARE(blackInTopRow(duplicate), row);
        QVERIFY(blackInTopRow(renderer.toImage(voucherReceipt(), paper, false)) < row / 2);
    }

    void renderScalesIntoAnyRectangle()
    {
        // A preview at half the resolution: same layout, half the pixels.
        ReceiptRenderer renderer;
        const QSizeF mm = renderer.paperSizeMm(mobileReceipt(), ReceiptWidth::Mm80, false);
        QImage image((mm * 4).toSize(), QImage::Format_RGB32);
        image.fill(Qt::white);
        QPainter painter(&image);
        renderer.render(painter, QRectF(QPointF(0, 0), mm * 4), mobileReceipt(), ReceiptWidth::Mm80, false);
        painter.end();
        int inked = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                inked += qGray(image.pixel(x, y)) < 128 ? 1 : 0;
        QVERIFY(inked > 300);
        // Nothing drawn below the paper.
        QImage tall((QSizeF(mm.width(), mm.height() * 2) * 4).toSize(), QImage::Format_RGB32);
        tall.fill(Qt::white);
        QPainter tallPainter(&tall);
        renderer.render(tallPainter, QRectF(QPointF(0, 0), mm * 4), mobileReceipt(), ReceiptWidth::Mm80, false);
        tallPainter.end();
        for (int y = int(mm.height() * 4) + 1; y < tall.height(); ++y)
            for (int x = 0; x < tall.width(); ++x)
                QVERIFY(qGray(tall.pixel(x, y)) > 200);
    }
};

QTEST_MAIN(TestUiReceipts)
#include "tst_ui_receipts.moc"
