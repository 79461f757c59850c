// The shared widgets of ui/widgets/ as a Qt Designer form builds them (issue 14): a parent-only constructor,
// then setters for what the other constructor takes, must give the same widget.
#include "widgets/digitslineedit.h"
#include "widgets/wrappedcheckbox.h"

#include <QCheckBox>
#include <QLabel>
#include <QSignalSpy>
#include <QtTest>

class TestUiWidgets final : public QObject
{
    Q_OBJECT

private slots:
    void digitsLineEditFromAForm()
    {
        QWidget form;
        auto *amount = new DigitsLineEdit(&form); // what uic writes
        QCOMPARE(amount->kind(), DigitsLineEdit::Kind::Digits);
        amount->setKind(DigitsLineEdit::Kind::Rupees);
        amount->setMaxLength(5);
        form.show();
        QVERIFY(QTest::qWaitForWindowExposed(&form));
        amount->setFocus();
        QSignalSpy refused(amount, &DigitsLineEdit::refused);

        // Whole rupees: "49.50" keeps 49, says why, and refuses the paise typed after the point.
        QTest::keyClicks(amount, QStringLiteral("49.50"));
        QCOMPARE(amount->text(), QStringLiteral("49"));
        QVERIFY(amount->refusalPending());
        QVERIFY2(refused.constFirst().constFirst().toString().contains(QLatin1String("Whole rupees")),
                 qPrintable(refused.constFirst().constFirst().toString()));
        // Issue 27: the reason says what the field now holds, and names no key that would take the 9 away.
        for (const QList<QVariant> &signal : std::as_const(refused)) {
            const QString reason = signal.constFirst().toString();
            QVERIFY2(reason.contains(QStringLiteral("₹49")) && !reason.contains(QLatin1String("Backspace")),
                     qPrintable(reason));
        }
        QCOMPARE(amount->pendingReason(), refused.constLast().constFirst().toString());
        // Letters are refused as in digits mode, and the maximum length holds.
        QTest::keyClick(amount, Qt::Key_Backspace);
        QTest::keyClicks(amount, QStringLiteral("x12345"));
        QCOMPARE(amount->text(), QStringLiteral("41234"));
    }

    void wrappedCheckBoxFromAForm()
    {
        QWidget form;
        auto *consent = new WrappedCheckBox(&form); // what uic writes
        const QString text = QStringLiteral("The customer agrees to verify their identity with Aadhaar OTP");
        consent->setText(text); // what uic's retranslateUi writes for the "text" property
        QCOMPARE(consent->text(), text);
        QCOMPARE(consent->label()->text(), text);
        QCOMPARE(consent->checkBox()->accessibleName(), text);
        QVERIFY(consent->checkBox()->text().isEmpty()); // the label wraps, the box has no text of its own
        form.show();
        QVERIFY(QTest::qWaitForWindowExposed(&form));

        // Clicking the sentence ticks the box, as with the text constructor.
        QTest::mouseClick(consent->label(), Qt::LeftButton);
        QVERIFY(consent->checkBox()->isChecked());
        QVERIFY(consent->checkBox()->hasFocus());
    }
};

QTEST_MAIN(TestUiWidgets)
#include "tst_ui_widgets.moc"
