#include "receipts/receiptdata.h"
#include "receipts/receiptrenderer.h"

#include <QFile>
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
    return ReceiptData::fromRecord(record, QStringLiteral("Sharma Mobile Point & Xerox"),
                                   QStringLiteral("12 Station Road, near Bus Stand, Jaipur 302006"));
}

ReceiptData mobileReceipt()
{
    const QJsonObject record{{QStringLiteral("entity"), QStringLiteral("mobile_recharge")},
                             {QStringLiteral("transaction_id"), 40232},
                             {QStringLiteral("operator"), QStringLiteral("Jio")},
                             {QStringLiteral("type"), QStringLiteral("MOBILE")},
                             {QStringLiteral("number"), QStringLiteral("9876543210")},
                             {QStringLiteral("bill_amount"), QStringLiteral("₹299.00")},
                             {QStringLiteral("discount"), QStringLiteral("₹4.49")},
                             {QStringLiteral("paid"), QStringLiteral("₹294.51")},
                             {QStringLiteral("transaction_status"), QStringLiteral("PENDING")},
                             {QStringLiteral("reference_id"), QStringLiteral("BILL-77")},
                             {QStringLiteral("datetime"), QStringLiteral("2024-07-14 18:45:00")}};
    return ReceiptData::fromRecord(record, QStringLiteral("Sharma Mobile Point"), QStringLiteral("Jaipur"));
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
        for (const char *expected : {"Sharma Mobile Point & Xerox", "12 Station Road", "2024-07-14 18:42:05", "40231",
                                     "Gift voucher", "Google Play", "K7QM-2XPL-9RTA-WD4C", "₹500.00", "₹5.00",
                                     "₹495.00", "SUCCESS", "rd-0f3c9a6b2d4e4f8aa1b2c3d4e5f60718", "Thank you"})
            QVERIFY2(all.contains(QString::fromUtf8(expected)), expected);
        QVERIFY(!all.contains(QLatin1String("DUPLICATE")));
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
        const ReceiptWidth paper = width == 58 ? ReceiptWidth::Mm58 : ReceiptWidth::Mm80;
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

    void image_data()
    {
        QTest::addColumn<int>("width");
        QTest::newRow("58 mm") << 58;
        QTest::newRow("80 mm") << 80;
    }
    void image()
    {
        QFETCH(int, width);
        const ReceiptWidth paper = width == 58 ? ReceiptWidth::Mm58 : ReceiptWidth::Mm80;
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
