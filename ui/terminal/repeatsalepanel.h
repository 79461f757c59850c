#pragma once

#include "entities/transactionrecord.h"

#include <QJsonObject>
#include <QWidget>

class QLabel;
class QPushButton;

/// Asked before the confirmation when the same number was sold the same amount minutes ago:
/// "Sold ₹299 to 98765 43210 at 14:02 — sell again?". Keyboard first: Enter (on the focused
/// default "No, go back"), N or Esc go back to the form; Y or Tab then Enter sells again. The
/// safe answer is the default because a repeat is what a double submit or a second clerk
/// produces by accident; selling twice on purpose takes a different key.
class RepeatSalePanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RepeatSalePanel)

public:
    explicit RepeatSalePanel(QWidget *parent = nullptr);

    /// Shows the question about `record` (the earlier sale) and focuses "No, go back".
    void ask(const TransactionRecord &record);

    QLabel *questionLabel() const { return m_question; }
    QPushButton *noButton() const { return m_no; }
    QPushButton *yesButton() const { return m_yes; }

signals:
    void sellAgain();
    void goBack();

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    QLabel *m_question;
    QLabel *m_details;
    QPushButton *m_no;
    QPushButton *m_yes;
};
