#include "answer.h"

ApiError AnswerDecoding::badAnswer(int httpStatus, const QString &problem)
{
    return ApiError(httpStatus, QStringLiteral("NETWORK_ERROR"), QStringLiteral("bad_answer"),
                    QStringLiteral("The server's answer could not be read (%1).").arg(problem));
}
