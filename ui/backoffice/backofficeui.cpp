#include "backofficeui.h"

#include "widgets/look.h"

#include <QAbstractItemModel>
#include <QCoreApplication>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QTableView>

namespace BackOfficeUi {

QWidget *card(QWidget *parent)
{
    auto *widget = new QWidget(parent);
    makeCard(widget);
    return widget;
}

void makeCard(QWidget *widget)
{
    Look::set(widget, "card");
    widget->setAttribute(Qt::WA_StyledBackground);
}

QString actorText(const QString &actor)
{
    if (actor.startsWith(QLatin1String("user:")))
        return actor.mid(5);
    if (actor.startsWith(QLatin1String("key:")))
        return QCoreApplication::translate("BackOfficeUi", "key %1").arg(actor.mid(4));
    if (actor == QLatin1String("setup"))
        return QCoreApplication::translate("BackOfficeUi", "first-run setup");
    if (actor == QLatin1String("system"))
        return QCoreApplication::translate("BackOfficeUi", "RechargeDesk itself");
    return actor;
}

QLabel *title(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    Look::set(label, "pageTitle");
    return label;
}

QLabel *hint(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    Look::set(label, "hint");
    label->setWordWrap(true);
    return label;
}

QLabel *heading(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setObjectName(QStringLiteral("sectionHeading"));
    QFont font = label->font();
    font.setBold(true);
    font.setPointSizeF(font.pointSizeF() * 1.15);
    label->setFont(font);
    return label;
}

QLabel *generalError(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setObjectName(QStringLiteral("generalError"));
    Look::set(label, "generalError");
    label->setWordWrap(true);
    label->hide();
    return label;
}

QLabel *notice(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setObjectName(QStringLiteral("notice"));
    label->setWordWrap(true);
    Look::set(label, "notice");
    label->hide();
    return label;
}

void showNotice(QLabel *label, const QString &text)
{
    label->setText(text);
    label->setVisible(!text.isEmpty());
}

void makePrimary(QPushButton *button)
{
    Look::set(button, "primary");
    button->setAutoDefault(true);
}

void makeBigValue(QLabel *label)
{
    Look::set(label, "bigValue");
}

QScrollArea *scrollArea(QWidget *content, QWidget *parent)
{
    auto *scroll = new QScrollArea(parent);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(content);
    scroll->viewport()->setAutoFillBackground(false);
    content->setAutoFillBackground(false);
    return scroll;
}

QWidget *sideColumn(QWidget *content, int width, QWidget *parent)
{
    QScrollArea *scroll = scrollArea(content, parent);
    content->setFixedWidth(width);
    scroll->setFixedWidth(width + scroll->verticalScrollBar()->sizeHint().width() + 2);
    return scroll;
}

QTableView *table(QAbstractItemModel *model, const QString &objectName, QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setObjectName(objectName);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setStretchLastSection(true);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    view->horizontalHeader()->setDefaultSectionSize(150);
    view->setTabKeyNavigation(false); // Tab leaves the table, arrows move inside it
    return view;
}

void confirm(QWidget *parent, const QString &title, const QString &text, const QString &confirmText,
             std::function<void()> accepted)
{
    auto *box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::NoButton, parent);
    box->setObjectName(QStringLiteral("confirmBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    QPushButton *yes = box->addButton(confirmText, QMessageBox::AcceptRole);
    yes->setObjectName(QStringLiteral("confirmButton"));
    QPushButton *cancel = box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(cancel);
    box->setEscapeButton(cancel);
    QObject::connect(box, &QMessageBox::buttonClicked, parent,
                     [yes, accepted = std::move(accepted)](QAbstractButton *clicked) {
                         if (clicked == yes)
                             accepted();
                     });
    box->open();
}

} // namespace BackOfficeUi
