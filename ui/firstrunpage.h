#pragma once

#include "widgets/formerrors.h"

#include <QWidget>

#include <memory>

class QLineEdit;
class QPushButton;

/// What the first-run screen collects to create the shop.
struct FirstRunForm
{
    QString shopName;
    QString shopAddress;
    QString adminName;
    QString adminPin;
};

/// First run: creates the shop, its first admin (name and PIN) and the terminal's test key.
/// The page only collects and checks the form; MainWindow runs the setup.
class FirstRunPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FirstRunPage)

public:
    explicit FirstRunPage(QWidget *parent = nullptr);
    /// Shows why the setup failed; `field` is "shop_name", "admin_name", "admin_pin" or empty.
    void showError(const QString &field, const QString &message);

signals:
    void setupRequested(const FirstRunForm &form);

private:
    void onCreateClicked();

    QLineEdit *m_shopName;
    QLineEdit *m_shopAddress;
    QLineEdit *m_adminName;
    QLineEdit *m_pin;
    QLineEdit *m_pinAgain;
    QPushButton *m_create;
    std::unique_ptr<FormErrors> m_errors;
};
