import PropStore

extension Ops {
    /// `delete {tag}` → `{deleted}`: the view and its subtree leave the session (freed once the request succeeds).
    enum Delete: Op {
        static let entry = OpTable.Entry("delete", outputIsUnbounded: true)

        static func perform(_ context: OpContext) throws(BridgeError) -> Session.Handoff? {
            let root = try context.view(try context.request.tag())
            let subtree = ViewTree.subtree(of: root)
            let relink = ViewTree.detach(root)
            ViewStorage.remove(tags: subtree.map(\.tag), session: context.session.storageKey)
            for view in subtree { view.isMounted = false }
            context.session.viewCount -= subtree.count
            context.session.scratch.deletedRoots.append(root)
            context.deleted(root, subtree: subtree, relink: relink)
            context.result.raw(#"{"deleted":"#)
            context.result.tagArray(subtree)
            context.result.raw("}")
            return nil
        }
    }
}
