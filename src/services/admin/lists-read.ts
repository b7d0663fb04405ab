/** Read side of the Lists area: the queries live in the store. */
export {
  type BookListRow,
  findAdminList,
  findListsForAdmin,
  type ListFilter,
  type ListRow,
  listsOfBook,
} from '../../store/admin-lists.js';
