#include "shopkeyreveal.h"

#include "backoffice/secretdialog.h"
#include "shopsapi.h"
#include "widgets/look.h"

#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

SecretDialog *ShopKeyReveal::open(QWidget *parent, const QString &shopName, const IssuedShopKey &key)
{
    auto *dialog = new SecretDialog(
        tr("Key for %1").arg(shopName),
        tr("%1 · key %2 · %3 · %4")
            .arg(shopName, key.keyId, key.mode == QLatin1String("live") ? tr("live") : tr("test"), key.scope),
        tr("Key secret"), key.secret, parent);
    auto *box = new QWidget(dialog);
    box->setObjectName(QStringLiteral("connectBox"));
    auto *heading = new QLabel(
        tr("On the shop's computer, run these lines (they connect it to this server; pass them on as privately as the "
           "secret):"),
        box);
    heading->setWordWrap(true);
    auto *lines = new QPlainTextEdit(key.connect.join(QLatin1Char('\n')), box);
    lines->setObjectName(QStringLiteral("connectLines"));
    Look::set(lines, "rawText");
    lines->setReadOnly(true);
    lines->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    lines->setTabChangesFocus(true);
    lines->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    lines->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    // Two screen lines for each (a long one wraps once at the dialog's width), and a margin.
    lines->setFixedHeight(lines->fontMetrics().lineSpacing() * (2 * qMax(1, int(key.connect.size())) + 1) +
                          2 * lines->frameWidth());
    auto *copy = new QPushButton(tr("Copy the &lines"), box);
    copy->setObjectName(QStringLiteral("copyConnectLines"));
    QObject::connect(copy, &QPushButton::clicked, box, [copy, text = lines->toPlainText()] {
        QApplication::clipboard()->setText(text);
        copy->setText(tr("Lines copied ✓"));
    });
    auto *row = new QHBoxLayout;
    row->addStretch();
    row->addWidget(copy);
    auto *column = new QVBoxLayout(box);
    column->setContentsMargins(0, 0, 0, 0);
    column->addWidget(heading);
    column->addWidget(lines);
    column->addLayout(row);
    // Between the secret and the Done button of the dialog's column.
    if (auto *layout = qobject_cast<QVBoxLayout *>(dialog->layout()))
        layout->insertWidget(layout->count() - 1, box);
    dialog->setMinimumWidth(900);
    dialog->setWindowModality(Qt::WindowModal);
    dialog->open();
    return dialog;
}
