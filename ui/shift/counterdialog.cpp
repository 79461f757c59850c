#include "counterdialog.h"

#include "widgets/look.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace {

/// Inputs as tall as the sign-in page's, for fingers too.
constexpr int kInputHeight = 44;

} // namespace

CounterDialog::CounterDialog(const QString &title, const QString &intro, QWidget *parent)
    : QDialog(parent), m_title(new QLabel(title, this)), m_intro(new QLabel(intro, this)), m_general(new QLabel(this)),
      m_errors(m_general), m_form(new QGridLayout), m_body(new QVBoxLayout), m_accept(new QPushButton(this)),
      m_cancel(new QPushButton(this))
{
    setWindowTitle(title);
    Look::set(this, "page");
    setMinimumWidth(560);
    Look::set(m_title, "pageTitle");
    m_intro->setWordWrap(true);
    Look::set(m_intro, "hint");
    m_intro->setVisible(!intro.isEmpty());
    m_general->setObjectName(QStringLiteral("dialogError"));
    Look::set(m_general, "generalError");
    m_general->setWordWrap(true);
    m_general->hide();
    m_form->setHorizontalSpacing(16);
    m_form->setVerticalSpacing(6);
    m_form->setColumnStretch(1, 1);
    m_accept->setObjectName(QStringLiteral("dialogAccept"));
    Look::set(m_accept, "action");
    m_accept->setAutoDefault(true);
    m_accept->setDefault(true);
    m_cancel->setObjectName(QStringLiteral("dialogCancel"));
    m_cancel->setAutoDefault(true);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_cancel);
    buttons->addStretch();
    buttons->addWidget(m_accept);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(28, 24, 28, 24);
    layout->setSpacing(12);
    layout->addWidget(m_title);
    layout->addWidget(m_intro);
    layout->addWidget(m_general);
    layout->addLayout(m_form);
    layout->addLayout(m_body);
    layout->addStretch();
    layout->addLayout(buttons);

    connect(m_accept, &QPushButton::clicked, this, [this] {
        if (!m_busy)
            onAccepted();
    });
    connect(m_cancel, &QPushButton::clicked, this, &CounterDialog::reject);
}

void CounterDialog::reject()
{
    if (!m_busy)
        QDialog::reject();
}

QLabel *CounterDialog::addRow(const QString &label, QWidget *input, const QString &field, QWidget *extra)
{
    const int row = m_form->rowCount();
    auto *name = new QLabel(label, this);
    name->setBuddy(input);
    name->setMinimumHeight(kInputHeight);
    input->setMinimumHeight(kInputHeight);
    QLabel *error = FormErrors::makeLabel(this);
    if (!field.isEmpty()) {
        error->setObjectName(QStringLiteral("error_") + field);
        m_errors.addField(field, error);
    }
    m_form->addWidget(name, row, 0);
    m_form->addWidget(input, row, 1);
    if (extra)
        m_form->addWidget(extra, row, 2);
    m_form->addWidget(error, row + 1, 1, 1, 2);
    addToEnterOrder({input});
    return error;
}

void CounterDialog::addSpanningRow(QWidget *widget)
{
    m_form->addWidget(widget, m_form->rowCount(), 0, 1, 3);
}

void CounterDialog::addToEnterOrder(const QList<QWidget *> &inputs)
{
    for (QWidget *input : inputs) {
        if (!m_inputs.isEmpty())
            setTabOrder(m_inputs.constLast(), input);
        setTabOrder(input, m_accept);
        setTabOrder(m_accept, m_cancel);
        m_inputs.append(input);
        input->installEventFilter(this);
    }
}

void CounterDialog::setActions(const QString &acceptText, const QString &cancelText)
{
    m_acceptText = acceptText;
    m_accept->setText(acceptText);
    m_cancel->setText(cancelText);
    m_cancel->setVisible(!cancelText.isEmpty());
}

void CounterDialog::setBusy(bool busy, const QString &busyText)
{
    m_busy = busy;
    m_accept->setEnabled(!busy);
    m_cancel->setEnabled(!busy);
    m_accept->setText(busy && !busyText.isEmpty() ? busyText : m_acceptText);
}

bool CounterDialog::showProblems()
{
    QWidget *first = m_errors.firstProblem();
    if (!first && !m_errors.hasErrors())
        return false;
    if (first)
        first->setFocus(Qt::OtherFocusReason);
    adjustSize();
    return true;
}

bool CounterDialog::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent *>(event)->key();
        const qsizetype at = m_inputs.indexOf(qobject_cast<QWidget *>(watched));
        if ((key == Qt::Key_Return || key == Qt::Key_Enter) && at >= 0) {
            // The next field that can take the text, or the main button after the last.
            for (qsizetype next = at + 1; next < m_inputs.size(); ++next) {
                QWidget *input = m_inputs.at(next);
                if (input->isVisible() && input->isEnabled()) {
                    input->setFocus(Qt::TabFocusReason);
                    if (auto *edit = qobject_cast<QLineEdit *>(input))
                        edit->selectAll();
                    return true;
                }
            }
            if (!m_busy)
                onAccepted();
            return true;
        }
    }
    return QDialog::eventFilter(watched, event);
}

void CounterDialog::showEvent(QShowEvent *event)
{
    QDialog::showEvent(event);
    // The style sheet (larger kiosk fonts) is applied by now: make room for what it needs.
    if (const QSize wanted = layout()->totalSizeHint(); wanted.width() > width() || wanted.height() > height())
        resize(std::max(wanted.width(), width()), std::max(wanted.height(), height()));
}
