#include "dispatch/dispatcher.h"

#include <cstring>

namespace st {
namespace dispatch {

void OperatorHandle::check_signature(SignatureId id, std::string (*text)()) const {
  ST_CHECK(op_->defined(), ST_ERROR_INVALID_ARGUMENT, "operator %s is not defined", op_->name().c_str());
  ST_CHECK(op_->signature() == id, ST_ERROR_INVALID_ARGUMENT, "operator %s (%s) has no signature %s",
           op_->name().c_str(), op_->schema(), text().c_str());
}

Dispatcher& Dispatcher::singleton() {
  static Dispatcher* const dispatcher = new Dispatcher();
  return *dispatcher;
}

OperatorEntry* Dispatcher::lookup(const char* name) const {
  for (OperatorEntry* op = head_.load(std::memory_order_acquire); op; op = op->next_in_list) {
    if (std::strcmp(op->name().c_str(), name) == 0) return op;
  }
  return nullptr;
}

const OperatorEntry* Dispatcher::find(const char* name) const { return lookup(name); }

OperatorEntry& Dispatcher::find_or_create(const char* name) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (OperatorEntry* op = lookup(name)) return *op;
  auto* op = new OperatorEntry(name);  // lives for the program, as the dispatcher
  op->next_in_list = head_.load(std::memory_order_relaxed);
  head_.store(op, std::memory_order_release);
  return *op;
}

OperatorHandle find_operator(const char* name) {
  const OperatorEntry* op = Dispatcher::singleton().find(name);
  ST_CHECK(op && op->defined(), ST_ERROR_INVALID_ARGUMENT, "no operator named %s is defined", name);
  return OperatorHandle(*op);
}

}  // namespace dispatch
}  // namespace st
